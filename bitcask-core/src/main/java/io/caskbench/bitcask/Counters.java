package io.caskbench.bitcask;

import java.time.Duration;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Threading: any thread adds, without a lock (striped adders: writers on different cores touch
 * different cells); any thread reads.
 *
 * <p>The facade's counts of calls and merges, for {@link BitCaskCounters}.
 */
final class Counters {

    /** Final, safe everywhere. */
    private final LongAdder puts = new LongAdder();
    /** Final, safe everywhere. */
    private final LongAdder gets = new LongAdder();
    /** Final, safe everywhere. */
    private final LongAdder deletes = new LongAdder();
    /** Final, safe everywhere. */
    private final LongAdder merges = new LongAdder();
    /** Final, safe everywhere. */
    private final LongAdder mergeNanos = new LongAdder();
    /** Final, safe everywhere. */
    private final LongAdder reclaimed = new LongAdder();
    /** Final, safe everywhere. */
    private final LongAdder bytesRead = new LongAdder();
    /** Final, safe everywhere. */
    private final LongAccumulator largestBytesRead = new LongAccumulator(Math::max, 0);
    /** Final, safe everywhere. */
    private final LongAccumulator longestNanos = new LongAccumulator(Math::max, 0);

    /** Counts a put. */
    void put() {
        puts.increment();
    }

    /** Counts a get. */
    void get() {
        gets.increment();
    }

    /** Counts a delete. */
    void delete() {
        deletes.increment();
    }

    /** Counts a batch of {@code putCount} puts and {@code deleteCount} deletes. */
    void batch(int putCount, int deleteCount) {
        puts.add(putCount);
        deletes.add(deleteCount);
    }

    /** Counts a merge that rewrote something: its wall time, the bytes it gave back and the bytes it read. */
    void merged(long nanos, long bytesReclaimed, long inputBytes) {
        merges.increment();
        mergeNanos.add(nanos);
        reclaimed.add(bytesReclaimed);
        bytesRead.add(inputBytes);
        largestBytesRead.accumulate(inputBytes);
        longestNanos.accumulate(nanos);
    }

    /** The counts now, with the forces, refusals and stalls the engine counted. */
    BitCaskCounters snapshot(long forces, long forceNanos, long refusedWrites, long stalledPuts, long stallNanos,
                             long mergeDebtBytes) {
        return new BitCaskCounters(puts.sum(), gets.sum(), deletes.sum(), merges.sum(), Duration.ofNanos(mergeNanos.sum()),
                reclaimed.sum(), bytesRead.sum(), largestBytesRead.get(), Duration.ofNanos(longestNanos.get()), forces,
                Duration.ofNanos(forceNanos), refusedWrites, stalledPuts, Duration.ofNanos(stallNanos), mergeDebtBytes);
    }
}
