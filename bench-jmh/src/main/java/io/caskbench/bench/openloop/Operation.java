package io.caskbench.bench.openloop;

/** One driven operation, called by the driver's worker threads. */
@FunctionalInterface
public interface Operation {

    /**
     * Does one operation of kind {@code type} on worker thread {@code thread} (0 .. threads-1; a thread's
     * calls never overlap, so per-thread state indexed by it needs no lock).
     *
     * @return a value the driver sums into {@link OpenLoopResult#sink()}, so that the work cannot be dropped
     *     by the JIT (a length, a checksum of the bytes read)
     * @throws Exception to stop the run; the driver rethrows it
     */
    long run(int thread, OpType type) throws Exception;
}
