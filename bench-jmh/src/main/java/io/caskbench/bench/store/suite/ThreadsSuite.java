package io.caskbench.bench.store.suite;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.threads.JmhThreadsCrossCheck;
import io.caskbench.bench.store.threads.ThousandThreads;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * The {@code threads} suite: 1000 threads on the store and on every peer ({@link ThousandThreads} get,
 * put and mixed), each row beside the same store's single-thread figure of the {@code store} suite, plus
 * LMDB's read-transaction settings at 1000 threads and, in the full profile, JMH's own
 * {@code @Threads(1000)} as a cross-check ({@link JmhThreadsCrossCheck}).
 *
 * <p>Every store runs every shape at {@link ThousandThreads#OPS_PER_THREAD} operations per thread (100k
 * per invocation), a shape the slowest peers finish within the time limit, the store at that same shape,
 * and at as many keys as one invocation has operations ({@link ThousandThreads#OPS}): a put round fills
 * its fresh store to the label, and a get or mixed invocation visits every key of its filled store once
 * (with ten times the keys it would read the same tenth of them in every invocation).
 *
 * <p>The quick profile measures {@value #QUICK_ITERATIONS} iterations per fork after the warm-up, 3 forks
 * (so its verdicts are indicative): 32 rows in about ten minutes on 2 cores.
 */
public final class ThreadsSuite extends PeerSuite {

    /** Measured iterations per fork in the quick profile: two keep the suite near ten minutes. */
    static final int QUICK_ITERATIONS = 2;

    /** Gets at other settings: LMDB's read transaction renewed every 100 gets, or kept for good. */
    static final String[] OTHER_GETS = StoreSuite.names(StoreKind.LMDB_RENEW_100, StoreKind.LMDB_TXN_REUSED);

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public ThreadsSuite() {
    }

    @Override
    public String name() {
        return "threads";
    }

    @Override
    public String description() {
        return "get, put and a 90/10 mix on 1000 threads, BitCask against every peer, the heap map, the"
                + " in-memory reference and the harness";
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        boolean smoke = profile == Profile.SMOKE;
        // Smoke: one op per thread keeps the check short; JMH's ops/invocation must match (Gang checks).
        int ops = smoke ? 1 : ThousandThreads.OPS_PER_THREAD;
        // As many keys as an invocation has operations: every row holds, and visits, what its label says.
        String keys = String.valueOf(Gang.THREADS * ops);
        List<ChainedOptionsBuilder> runs = new ArrayList<>();
        // One warm-up iteration (at least one invocation) before the measured ones, as in every other run:
        // without it a cold first iteration made a third of the sample and the spread.
        runs.add(gang(profile, "get", keys, ops).param("store", StoreSuite.concat(StoreSuite.STORES, OTHER_GETS)));
        runs.add(gang(profile, "put", keys, ops).param("store", StoreSuite.STORES));
        runs.add(gang(profile, "mixed", keys, ops).param("store", StoreSuite.STORES));
        // JMH's own 1000 busy threads need minutes per trial on 2 cores just to start and stop their
        // iterations together, so the cross-check runs in the full profile; smoke only proves it runs.
        if (profile == Profile.FULL) {
            runs.add(StoreSuite.base(profile).include(StoreSuite.pattern(JmhThreadsCrossCheck.class))
                    .param("keyCount", keys).param("valueSize", "100").param("order", "RANDOM")
                    .param("store", StoreSuite.BITCASK));
        } else if (smoke) {
            runs.add(StoreSuite.base(profile).include(StoreSuite.pattern(JmhThreadsCrossCheck.class))
                    .param("keyCount", keys).param("valueSize", "100").param("order", "RANDOM")
                    .param("store", StoreSuite.BITCASK[0]).threads(2));
        }
        return runs;
    }

    /** One 1000-thread method at {@code opsPerThread} operations per thread, JMH's count set to match. */
    private static ChainedOptionsBuilder gang(Profile profile, String method, String keys, int opsPerThread) {
        ChainedOptionsBuilder base = StoreSuite.base(profile);
        if (profile == Profile.QUICK) {
            base.measurementIterations(QUICK_ITERATIONS);
        }
        return StoreSuite.thousandThreads(base, method, keys, opsPerThread);
    }
}
