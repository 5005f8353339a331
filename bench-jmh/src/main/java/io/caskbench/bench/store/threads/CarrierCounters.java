package io.caskbench.bench.store.threads;

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
 * in the iteration after its own), and {@code carriersAdded}, the carriers the virtual-thread scheduler's
 * pool held beyond its parallelism, the most seen during the iteration as its virtual threads ended and
 * after each invocation ({@link VirtualGang#extraCarriers()}; -1 where the pool cannot be read). The second is a level, not a count of new ones: carriers the JDK added during warm-up
 * stay in the pool until they idle out, and a measured iteration shows them. Both land in the JMH JSON
 * beside the score; a reader takes the sum of {@code pinned} and the largest {@code carriersAdded} over a
 * row's iterations, not JMH's aggregate score.
 *
 * <p>Fields are public because JMH reads them as counters; nothing else should write them.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CarrierCounters {

    /** Pins JFR reported during the iteration. */
    public long pinned;
    /** The most carriers beyond the parallelism seen during the iteration. */
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
        long extra = gang.extraCarriers();
        carriersAdded = extra < 0 ? -1 : Math.max(carriersAdded, extra);
    }
}
