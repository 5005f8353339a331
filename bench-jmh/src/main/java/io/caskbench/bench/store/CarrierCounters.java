package io.caskbench.bench.store;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Threading: the benchmark thread only.
 *
 * <p>Secondary metrics of the virtual-thread benchmarks, per iteration: {@code pinned}, the
 * {@code jdk.VirtualThreadPinned} events JFR delivered (with a delay of about a second, so a pin may count
 * in the iteration after its own), and {@code carriersAdded}, how far the carrier pool grew past its
 * parallelism (its largest size seen after an invocation, less the parallelism, counted once; -1 where
 * the pool cannot be read). They land in the JMH JSON beside the score.
 *
 * <p>Fields are public because JMH reads them as counters; nothing else should write them.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CarrierCounters {

    /** Pins JFR reported during the iteration. */
    public long pinned;
    /** Carriers the pool grew by during the iteration. */
    public long carriersAdded;

    /** Creates zeroed counters; JMH does this once per thread. */
    public CarrierCounters() {
    }

    /** Counters describe one iteration each. */
    @Setup(Level.Iteration)
    public void reset() {
        pinned = 0;
        carriersAdded = 0;
    }

    /** Adds what {@code gang} saw since the last invocation; cheap enough inside the measured method. */
    public void record(VirtualGang gang) {
        pinned += gang.newPins();
        long added = gang.newCarriers();
        carriersAdded = added < 0 ? -1 : carriersAdded + added;
    }
}
