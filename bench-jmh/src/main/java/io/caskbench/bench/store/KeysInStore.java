package io.caskbench.bench.store;

/**
 * How many keys the measured store held, averaged over the measured puts of one iteration; handed to
 * {@link FootprintProfiler}, which reports it as the secondary metric {@value #METRIC}, so a row labelled
 * N keys can be checked to have measured a store of about N keys.
 *
 * <p>The put fixtures record one sample per invocation: the keys held midway through that invocation's
 * puts. The profiler clears the samples before each iteration. Any thread may record; the methods
 * synchronize on the class.
 */
final class KeysInStore {

    /** Name of the secondary metric in JMH's results. */
    static final String METRIC = "keysInStore";

    /** Sum of the samples of this iteration; guarded by the class. */
    private static double sum;
    /** Samples of this iteration; guarded by the class. */
    private static long samples;

    private KeysInStore() {
    }

    /** Records that an invocation's puts ran against a store holding {@code keys} keys midway. */
    static synchronized void record(double keys) {
        sum += keys;
        samples++;
    }

    /**
     * Keys held midway through a batch of {@code batch} puts that starts at {@code putsBefore} puts into a
     * store that held {@code heldBefore} keys and has room for {@code keyCount} distinct keys: each put
     * inserts a new key until all {@code keyCount} are in, and replaces one after that.
     */
    static double midway(long heldBefore, long putsBefore, long batch, long keyCount) {
        long start = Math.min(keyCount, heldBefore + putsBefore);
        long end = Math.min(keyCount, heldBefore + putsBefore + batch);
        return (start + end) / 2.0;
    }

    /** Forgets the samples; the profiler calls this before each iteration. */
    static synchronized void clear() {
        sum = 0;
        samples = 0;
    }

    /** The mean of this iteration's samples, or -1 when none were recorded. */
    static synchronized double mean() {
        return samples == 0 ? -1 : sum / samples;
    }
}
