package io.caskbench.bench.junit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * A trivial benchmark for {@link JmhThroughputTest}: it exists to prove that a JMH run reaches the
 * score table, and measures nothing of interest. The result is returned so it is not dead code.
 */
@State(Scope.Thread)
public class CounterBench {

    /** Added on every call. */
    @Param({"1"})
    public long step;

    private long counter;

    /** One addition. */
    @Benchmark
    public long increment() {
        counter += step;
        return counter;
    }

    /** Two additions; present so that method selection has something to leave out. */
    @Benchmark
    public long incrementTwice() {
        counter += 2 * step;
        return counter;
    }
}
