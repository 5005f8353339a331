package io.caskbench.bench.store.overwrite;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;

/**
 * The summary figures of one sustained-overwrite run, from its time series and its whole-run latency
 * histograms: what reaches JMH's results as secondary metrics, by name.
 *
 * <ul>
 *   <li>{@code spaceAmpMax}, {@code spaceAmpMean}: disk over live bytes, the largest and the mean over the
 *       intervals;</li>
 *   <li>{@code writeAmp}: device over application bytes over the whole run;</li>
 *   <li>{@code throughputRunOverFirstMinute}: puts per second over the whole run over those in its first
 *       minute (the target), and {@code throughputLastOverFirstMinute}: those in the last minute over the
 *       first's; a run shorter than two minutes takes its first and last halves' worth of whole intervals
 *       instead (at most a minute each);</li>
 *   <li>{@code p50}, {@code p99}, {@code p99.9}, {@code max} of every operation, the same per kind
 *       ({@code put:p99}, {@code get:p99}...), in microseconds over the whole run, and {@code put:p99Worst}, the worst interval's put p99;</li>
 *   <li>at a fixed rate, {@code unfinished} (operations the load never started, censored into the
 *       percentiles) and {@code harness:p50}, {@code harness:p99}, {@code harness:p99.9}, {@code harness:max}:
 *       those of the harness pass run before the first interval, the driver's floor;</li>
 *   <li>{@code achieved} operations per second, {@code offered} (0 at full speed), {@code compactions},
 *       and, where the store reports them, {@code compactionMillis} (all of them together),
 *       {@code longestCompactionMillis} and {@code largestCompactionBytes} (the longest and the largest single
 *       one) and {@code compactionInputBound} (the most input one may take by the store's settings).</li>
 * </ul>
 */
public final class OverwriteSummary {

    /** The first and last minute compared. */
    static final double MINUTE = 60;

    private OverwriteSummary() {
    }

    /**
     * The figures, in the order they are reported; a run with no interval has none.
     *
     * @param inputBound the most input bytes one merge or compaction may take, -1 when the store sets none
     * @param unfinished operations never started, censored into {@code puts} and {@code gets} (open loop)
     * @param harness the harness pass's latencies in nanoseconds, or null (closed loop)
     */
    public static Map<String, Double> of(List<IntervalSample> samples, Histogram puts, Histogram gets,
            double offered, long inputBound, long unfinished, Histogram harness) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (samples.isEmpty()) {
            return out;
        }
        out.put("spaceAmpMax", samples.stream().mapToDouble(IntervalSample::spaceAmp).max().orElse(Double.NaN));
        out.put("spaceAmpMean", samples.stream().mapToDouble(IntervalSample::spaceAmp).average().orElse(Double.NaN));
        IntervalSample last = samples.get(samples.size() - 1);
        out.put("writeAmp", last.writeAmp());
        out.put("throughputRunOverFirstMinute", runOverFirst(samples));
        out.put("throughputLastOverFirstMinute", lastOverFirst(samples));
        Histogram all = puts.copy();
        all.add(gets);
        percentiles(out, "", all);
        percentiles(out, "put:", puts);
        percentiles(out, "get:", gets);
        if (harness != null) {
            percentiles(out, "harness:", harness);
        }
        out.put("put:p99Worst", samples.stream().mapToDouble(IntervalSample::putP99).filter(v -> !Double.isNaN(v))
                .max().orElse(Double.NaN));
        double seconds = samples.stream().mapToDouble(IntervalSample::seconds).sum();
        long ops = samples.stream().mapToLong(s -> s.puts() + s.gets()).sum();
        out.put("achieved", ops / seconds);
        out.put("offered", offered);
        if (offered > 0) {
            out.put("unfinished", (double) unfinished);
        }
        out.put("compactions", (double) last.compactions());
        if (last.compactionMillis() >= 0) {
            out.put("compactionMillis", (double) last.compactionMillis());
        }
        known(out, "longestCompactionMillis", last.longestCompactionMillis());
        known(out, "largestCompactionBytes", last.largestCompactionBytes());
        known(out, "compactionInputBound", inputBound);
        return out;
    }

    /** Puts per second over the whole run over those of the first window, as {@link #lastOverFirst} sets it. */
    static double runOverFirst(List<IntervalSample> samples) {
        double window = window(samples);
        return ratio(putsPerSecond(samples, s -> true), putsPerSecond(samples, s -> s.second() <= window + 1e-9));
    }

    /**
     * Puts per second over the last window of whole intervals over those of the first, the window a minute
     * or, in a shorter run, half of it.
     */
    static double lastOverFirst(List<IntervalSample> samples) {
        double total = samples.get(samples.size() - 1).second();
        double window = window(samples);
        return ratio(putsPerSecond(samples, s -> s.second() - s.seconds() >= total - window - 1e-9),
                putsPerSecond(samples, s -> s.second() <= window + 1e-9));
    }

    /** A minute, or half the run when it is shorter than two. */
    private static double window(List<IntervalSample> samples) {
        return Math.min(MINUTE, samples.get(samples.size() - 1).second() / 2);
    }

    /** Puts per second over the intervals {@code which} takes; NaN when it takes none. */
    private static double putsPerSecond(List<IntervalSample> samples, Predicate<IntervalSample> which) {
        long puts = 0;
        double seconds = 0;
        for (IntervalSample s : samples) {
            if (which.test(s)) {
                puts += s.puts();
                seconds += s.seconds();
            }
        }
        return seconds == 0 ? Double.NaN : puts / seconds;
    }

    /** {@code part} over {@code base}; NaN when the base is unknown or zero. */
    private static double ratio(double part, double base) {
        return Double.isNaN(base) || base == 0 ? Double.NaN : part / base;
    }

    /** Puts {@code value} under {@code name} unless it is unknown (negative). */
    private static void known(Map<String, Double> out, String name, long value) {
        if (value >= 0) {
            out.put(name, (double) value);
        }
    }

    private static void percentiles(Map<String, Double> out, String prefix, Histogram ns) {
        if (ns.getTotalCount() == 0) {
            return;
        }
        out.put(prefix + "p50", ns.getValueAtPercentile(50) / 1e3);
        out.put(prefix + "p99", ns.getValueAtPercentile(99) / 1e3);
        out.put(prefix + "p99.9", ns.getValueAtPercentile(99.9) / 1e3);
        out.put(prefix + "max", ns.getMaxValue() / 1e3);
    }
}
