package io.caskbench.bench.store;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Single-threaded get and put, shared by {@link BitCaskSingleThread} (the backend grid) and
 * {@link PeersSingleThread} (every store at one point). Subclasses only declare which store.
 *
 * <p>Gets visit every key of a store filled once per trial, in the workload's read order (independent of
 * the order the keys were put in), one get per invocation. Puts insert new keys in batches of {@link #PUT_BATCH} into a store that is replaced by an
 * empty one when a round of all keys is done ({@link PutRounds}), so the files stay bounded.
 * Not measured by accident: key formatting (keys are pre-generated), filling, opening and deleting
 * stores (fixtures), and dead reads (every value is returned, and a missing key fails the run).
 */
@State(Scope.Thread)
public abstract class SingleThreadWorkload extends DecimalWorkload {

    /** Puts per invocation; it divides every key count the suites use. */
    public static final int PUT_BATCH = 10_000;

    /** One get of the next key in the workload's read order. */
    @Benchmark
    public byte[] get(FilledStore filled) {
        return readNext(filled);
    }

    /** {@link #PUT_BATCH} puts of new keys. */
    @Benchmark
    @OperationsPerInvocation(PUT_BATCH)
    public void put(PutRounds rounds) {
        rounds.putBatch();
    }
}
