package io.caskbench.cli;

import io.caskbench.bitcask.ProgressListener;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

import java.io.Console;
import java.lang.reflect.Method;

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
     * True when the process talks to a terminal. Before JDK 22 a console exists only then; from
     * JDK 22 on one exists also when the streams are redirected, and {@code isTerminal()} (which
     * the 17 baseline cannot name) tells.
     */
    static boolean terminal() {
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
        if ("MiB".equals(unit)) {
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
