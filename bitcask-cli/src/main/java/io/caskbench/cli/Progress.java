package io.caskbench.cli;

import io.caskbench.bitcask.ProgressListener;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

import java.io.Console;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Progress bars on stderr, one per phase of a long operation; does nothing when disabled, so a
 * command reports progress the same way whether or not anyone watches.
 */
final class Progress implements ProgressListener, AutoCloseable {

    private static final long MIB = 1L << 20;

    private final boolean enabled;
    private final String unit;
    private ProgressBar bar;

    /**
     * A listener that draws bars when {@code enabled}.
     *
     * @param unit {@code "MiB"} for totals in bytes, else the name of what totals count
     */
    Progress(boolean enabled, String unit) {
        this.enabled = enabled;
        this.unit = unit;
    }

    /**
     * True when stderr, where the bars go, is a terminal. On Linux its file descriptor names the
     * device, so {@code bitcask dump DIR > file} still shows a bar. Elsewhere the console decides:
     * before JDK 22 one exists only when stdin and stdout are terminals; from JDK 22 on one exists
     * also when they are redirected, and {@code isTerminal()} (which the 17 baseline cannot name) tells.
     */
    static boolean terminal() {
        try {
            String stderr = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return stderr.startsWith("/dev/pts/") || stderr.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException notLinux) {
            return consoleIsTerminal();
        }
    }

    private static boolean consoleIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException beforeJdk22) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void phase(String name, long total) {
        close();
        if (!enabled) {
            return;
        }
        ProgressBarBuilder b = new ProgressBarBuilder()
                .setTaskName(name)
                .setInitialMax(total)
                .setConsumer(new ConsoleProgressBarConsumer(System.err))
                .setUpdateIntervalMillis(200)
                .clearDisplayOnFinish();
        if (total < 0) {
            b.setUnit("", 1); // no count to show: the bar shows the time that has passed
        } else if ("MiB".equals(unit)) {
            b.setUnit(" MiB", MIB).showSpeed();
        } else {
            b.setUnit(" " + unit, 1);
        }
        bar = b.build();
    }

    @Override
    public void advance(long amount) {
        if (bar != null) {
            bar.stepBy(amount);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
