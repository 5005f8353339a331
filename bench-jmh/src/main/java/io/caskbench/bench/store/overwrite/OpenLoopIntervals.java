package io.caskbench.bench.store.overwrite;

import io.caskbench.bench.openloop.OpType;
import io.caskbench.bench.openloop.OpenLoopDriver;
import io.caskbench.bench.openloop.OpenLoopResult;
import io.caskbench.bench.openloop.OpenLoopSettings;
import io.caskbench.bench.openloop.Operation;
import io.caskbench.bench.openloop.OperationMix;
import java.time.Duration;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * The load at a fixed arrival rate: each interval is one run of {@link OpenLoopDriver}, so every latency is
 * timed from the operation's intended start. Between intervals the load pauses for the driver's start
 * (about 10 ms), and a backlog at an interval's end is finished within half an interval's grace or counted
 * as unfinished (censored: recorded at the grace's end) rather than carried into the next interval; a row
 * whose achieved rate is below the offered one was saturated. Before its first interval it runs the harness
 * pass of one interval ({@link OpenLoopDriver#runWithHarness}): the driver's floor at this rate and threads.
 * Used by one thread.
 */
public final class OpenLoopIntervals implements IntervalLoad {

    private final int threads;
    private final double rate;
    private final OperationMix mix;
    private final Operation operation;
    /** Each interval's seed; measuring thread only. */
    private long seed = 1;
    /** The harness pass's latencies once the first interval ran, else null; measuring thread only. */
    private Histogram harness;

    /** {@code threads} workers sharing {@code rate} operations per second of {@code mix}. */
    public OpenLoopIntervals(int threads, double rate, OperationMix mix, Operation operation) {
        this.threads = threads;
        this.rate = rate;
        this.mix = mix;
        this.operation = operation;
    }

    @Override
    public Interval run(Duration length) {
        OpenLoopSettings settings = OpenLoopSettings.builder().threads(threads).rate(rate).mix(mix)
                .measure(length).grace(length.dividedBy(2)).seed(seed++).build();
        OpenLoopResult r;
        if (harness == null) {
            r = OpenLoopDriver.runWithHarness(settings, operation);
            harness = r.harness().orElseThrow().histogram();
        } else {
            r = OpenLoopDriver.run(settings, operation);
        }
        long done = r.count() - r.unfinished();
        double seconds = r.achieved() > 0 ? done / r.achieved() : length.toNanos() / 1e9;
        return new Interval(r.histogram(OpType.PUT), r.histogram(OpType.GET), r.unfinished(OpType.PUT),
                r.unfinished(OpType.GET), seconds, r.sink());
    }

    @Override
    public Optional<Histogram> harness() {
        return Optional.ofNullable(harness).map(Histogram::copy);
    }

    @Override
    public boolean openLoop() {
        return true;
    }
}
