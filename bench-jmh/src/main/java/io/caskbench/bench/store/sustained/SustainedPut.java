package io.caskbench.bench.store.sustained;

import io.caskbench.bench.store.fixture.DecimalWorkload;
import io.caskbench.bench.store.fixture.KeysInStore;
import io.caskbench.bench.store.fixture.StoreParam;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Why: what does a put cost when a store runs for a minute, long past the kernel's dirty-page thresholds,
 * instead of in rounds whose files are deleted before the kernel writes them back? One store per trial,
 * never swapped: one thread puts the workload's keys in fill order, round after round (new keys in the
 * first round, replacements after), for the whole iteration, and then closes the store, in measured
 * time, so its forces, hint files, flushes and compactions count too ({@link SustainedStore}).
 *
 * <p>The figure is the secondary result {@code puts}: puts per second over the iteration, close
 * included. The primary score counts invocations, one per iteration, and means nothing. The length of
 * the run is the iteration time the suite sets: 60 s in the full profile; the quick profile runs 5 s
 * (its label says so through JMH's recorded measurement time), too short to pass the dirty thresholds
 * of a machine with much memory. The keys the store held are reported as {@value KeysInStore#METRIC}.
 *
 * <p>Must not measure by accident: key formatting (keys are pre-generated), opening the store (trial
 * setup) or reopening it after the warm-up's close (iteration setup), deleting it (trial teardown), or
 * a store that stops before its deferred work is done (the close is inside the invocation).
 */
@State(Scope.Thread)
public class SustainedPut extends DecimalWorkload {

    /** Declares the {@code store} parameter, by default each store at its main setting, the heap map and the harness ({@link StoreParam.MainSettings}). */
    @Setup(Level.Trial)
    public void stores(StoreParam.MainSettings stores) {
        // Nothing to set up: taking the state is what gives this benchmark the parameter.
    }

    /** The puts of one iteration, which JMH reports per second of the iteration as the result {@code puts}. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Puts {

        /** Puts done in this iteration; only the benchmark thread writes it. */
        public long puts;

        /** JMH creates the counters. */
        public Puts() {
        }

        /** Starts the iteration's count at zero. */
        @Setup(Level.Iteration)
        public void clear() {
            puts = 0;
        }
    }

    /** Puts until the iteration's time is up, then closes the store; every put is counted. */
    @Benchmark
    public void put(SustainedStore sustained, Puts counter) {
        counter.puts += sustained.putForIteration();
    }
}
