package io.caskbench.report.input;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The machine a run was made on. Results mean little without it, so every runner writes it beside
 * its JSON ({@code <results>/machine.json}) and the report prints it above the figures.
 *
 * @param cpuCount logical CPUs available to the JVM
 * @param cpuModel "model name" from /proc/cpuinfo, or the JVM's os.arch when that file is absent
 * @param memoryBytes total physical memory (as the JVM sees it, so a container limit counts)
 * @param jdkVendor java.vendor
 * @param jdkVersion java.runtime.version (falls back to java.version)
 * @param javaHome java.home
 * @param vmName java.vm.name
 * @param osName os.name
 * @param osVersion os.version (the kernel on Linux)
 * @param osArch os.arch
 * @param date when it was captured, ISO-8601 with offset
 * @param libraries the versions of the libraries the run measured, by artifact ({@code rocksdbjni} to
 *     {@code 11.8.1}); empty for a runner that names none, and in runs recorded before it was kept
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Machine(
        int cpuCount,
        String cpuModel,
        long memoryBytes,
        String jdkVendor,
        String jdkVersion,
        String javaHome,
        String vmName,
        String osName,
        String osVersion,
        String osArch,
        String date,
        Map<String, String> libraries) {

    /** Keeps the libraries in name order; absent ones are an empty map. */
    public Machine {
        libraries = libraries == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(libraries));
    }

    /** A machine without library versions: what the non-Java runners and older runs record. */
    public Machine(int cpuCount, String cpuModel, long memoryBytes, String jdkVendor, String jdkVersion,
            String javaHome, String vmName, String osName, String osVersion, String osArch, String date) {
        this(cpuCount, cpuModel, memoryBytes, jdkVendor, jdkVersion, javaHome, vmName, osName, osVersion, osArch,
                date, Map.of());
    }

    /** This machine with the versions of the libraries a run measures. */
    public Machine withLibraries(Map<String, String> versions) {
        return new Machine(cpuCount, cpuModel, memoryBytes, jdkVendor, jdkVersion, javaHome, vmName, osName,
                osVersion, osArch, date, versions);
    }

    /** The libraries as one line, {@code h2 2.4.240, rocksdbjni 11.8.1}; empty when none was recorded. */
    @JsonIgnore
    public String librariesLine() {
        return libraries.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    /** File name inside a results folder. */
    public static final String FILE_NAME = "machine.json";

    /** Describes the machine this JVM runs on, now. */
    public static Machine capture() {
        return new Machine(
                Runtime.getRuntime().availableProcessors(),
                readCpuModel(),
                totalMemory(),
                System.getProperty("java.vendor", "?"),
                System.getProperty("java.runtime.version", System.getProperty("java.version", "?")),
                System.getProperty("java.home", "?"),
                System.getProperty("java.vm.name", "?"),
                System.getProperty("os.name", "?"),
                System.getProperty("os.version", "?"),
                System.getProperty("os.arch", "?"),
                OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
    }

    /**
     * Captures this machine and writes it to {@code <resultsDir>/machine.json}, creating the folder.
     *
     * @return the file written
     */
    public static Path write(Path resultsDir) {
        return capture().writeTo(resultsDir);
    }

    /** Writes this description to {@code <resultsDir>/machine.json}, creating the folder. */
    public Path writeTo(Path resultsDir) {
        try {
            Files.createDirectories(resultsDir);
            Path file = resultsDir.resolve(FILE_NAME);
            Json.MAPPER.writeValue(file.toFile(), this);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + resultsDir.resolve(FILE_NAME), e);
        }
    }

    /** Reads {@code <resultsDir>/machine.json}; empty when it is absent or unreadable. */
    public static Optional<Machine> read(Path resultsDir) {
        Path file = resultsDir.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.MAPPER.readValue(file.toFile(), Machine.class));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** One line for labels and summaries: CPUs, model, memory, JDK, OS and date. */
    @JsonIgnore
    public String oneLine() {
        return String.format(Locale.ROOT, "%d x %s, %.1f GiB, %s %s, %s %s (%s), %s",
                cpuCount, cpuModel, memoryBytes / (1024.0 * 1024 * 1024), jdkVendor, jdkVersion,
                osName, osVersion, osArch, date);
    }

    private static String readCpuModel() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            try {
                List<String> lines = Files.readAllLines(cpuinfo);
                for (String key : List.of("model name", "Model", "Hardware", "cpu model")) {
                    for (String line : lines) {
                        int colon = line.indexOf(':');
                        if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                            return line.substring(colon + 1).trim();
                        }
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                // fall through to the architecture: a missing model must not fail a benchmark run
            }
        }
        return System.getProperty("os.arch", "unknown CPU");
    }

    private static long totalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return Runtime.getRuntime().maxMemory();
    }
}
