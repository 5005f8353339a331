package io.caskbench.bench.store.single;

import io.caskbench.bench.store.fixture.DecimalWorkload;
import io.caskbench.bench.store.fixture.FilledStore;
import io.caskbench.bench.store.fixture.PutRounds;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Single-threaded get and put, shared by {@link BitCaskSingleThread} (the backend grid) and
 * {@link PeersSingleThread} (every store at one point). Subclasses only declare which store.
 *
 * <p>Gets visit every key of a store filled once per trial, in the workload's read order (independent of
 * the order the keys were put in), one get per invocation. Puts go in batches of {@link #PUT_BATCH} in
 * rounds of all keys ({@link PutRounds}): into an empty store per round by default, or, with
 * {@code prefilled=true} (the scale rows), replacing the keys of a store that holds all of them. The
 * batch that ends a round closes the store in measured time, so the work the store defers to its close
 * is amortised over the round's puts.
 *
 * <p>Must not measure by accident: key formatting (keys are pre-generated), filling, opening and deleting
 * stores (fixtures), dead reads (every value is returned to JMH, which consumes it, and a missing key
 * fails the run), or a put that leaves its store's deferred work out of the clock.
 */
@State(Scope.Thread)
public abstract class SingleThreadWorkload extends DecimalWorkload {

    /**
     * Puts per invocation when run without the suites, which set it to the key count: a round of this many
     * puts, the first keys of the fill order.
     */
    public static final int PUT_BATCH = 10_000;

    /**
     * False: puts insert new keys into a store that starts each round empty. True: puts replace the keys
     * of a store filled with all of them first, so it holds the row's key count while measured. Gets
     * ignore it. Read by {@link PutRounds} through {@code BenchmarkParams}.
     */
    @Param("false")
    public boolean prefilled;

    /** One get of the next key in the workload's read order. */
    @Benchmark
    public byte[] get(FilledStore filled) {
        return readNext(filled);
    }

    /** One round of puts (the operations per invocation), then the store's close. */
    @Benchmark
    @OperationsPerInvocation(PUT_BATCH)
    public void put(PutRounds rounds) {
        rounds.putBatch();
    }
}
