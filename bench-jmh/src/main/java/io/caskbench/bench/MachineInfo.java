package io.caskbench.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The few facts about this machine that every summary starts with, so a figure is never read without
 * knowing where it came from. The full record ({@code machine.json}) is bench-report's {@code Machine}.
 */
final class MachineInfo {

    private MachineInfo() {
    }

    /** CPU count and model, memory, JDK, OS and date as summary header lines. */
    static String header() {
        Runtime rt = Runtime.getRuntime();
        return String.format(Locale.ROOT, "machine : %d CPUs (%s), %s RAM%n"
                        + "jdk     : %s %s (%s)%n"
                        + "os      : %s %s %s%n"
                        + "date    : %s%n",
                rt.availableProcessors(), cpuModel(), memory(),
                System.getProperty("java.vendor"), System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.name"),
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch"),
                ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown model");
        } catch (IOException | RuntimeException e) {
            return "unknown model";
        }
    }

    private static String memory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return String.format(Locale.ROOT, "%.1f GiB", os.getTotalMemorySize() / (1024.0 * 1024 * 1024));
        }
        return "unknown";
    }
}
