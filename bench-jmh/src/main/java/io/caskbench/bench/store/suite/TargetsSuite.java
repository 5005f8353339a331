package io.caskbench.bench.store.suite;

import io.caskbench.bench.open.OpenBench;
import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.single.PeersSingleThread;
import io.caskbench.bench.store.single.WriteFloor;
import io.caskbench.bench.store.threads.GroupCommit;
import io.caskbench.bench.store.threads.ThousandThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * The {@code targets} suite: every measurement BitCask's performance targets are stated in, in one run, at
 * their point (1M keys, 16-byte keys, 100-byte values, random order, no per-operation fsync unless the row
 * is about {@code SyncPolicy.ALWAYS}). Its comparison file ends with the table of targets, each with the
 * measured ratio, its spread and whether it is met.
 *
 * <ul>
 *   <li>get and put against the peers and the in-memory reference, and the key directory's size:
 *       {@link PeersSingleThread}, every store;</li>
 *   <li>1000 threads against one: {@link ThousandThreads} get and put for both BitCask backends, the in-memory reference
 *       and the harness;</li>
 *   <li>FILE_CHANNEL against its floor: {@link WriteFloor} against {@code PeersSingleThread.put};</li>
 *   <li>group commit: {@link GroupCommit} with {@code SyncPolicy.ALWAYS}, one thread against 1000;</li>
 *   <li>open time: {@link OpenBench}, open with hint files against a full scan.</li>
 * </ul>
 */
public final class TargetsSuite extends PeerSuite {

    /** Benchmarks that only this suite runs (the store suite runs the others), as a pattern on their names. */
    public static final Pattern ONLY = Pattern.compile("\\.(WriteFloor|GroupCommit|OpenBench)\\.");

    private static final String[] THREADED = {"BITCASK_MAPPED", "BITCASK_FILE_CHANNEL", "IN_MEMORY_REFERENCE",
        "HARNESS"};

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public TargetsSuite() {
    }

    @Override
    public String name() {
        return "targets";
    }

    @Override
    public String description() {
        return "BitCask's performance targets, measured together at 1M keys, 16-byte keys, 100-byte values";
    }

    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        return base(profile).include(StoreSuite.pattern(PeersSingleThread.class)).include(StoreSuite.pattern(ThousandThreads.class))
                .include(StoreSuite.pattern(WriteFloor.class)).include(StoreSuite.pattern(GroupCommit.class))
                .include(StoreSuite.pattern(OpenBench.class));
    }

    /**
     * The store suite's settings, with a 60 s limit per 1000-thread invocation (only BitCask and the in-memory reference
     * run here, and a slower one has missed the 1000-thread target anyway) and, in the quick profile, 2 warm-up and 5 measured
     * iterations: the targets are ratios, and three iterations left errors as large as some of them.
     */
    private static ChainedOptionsBuilder base(Profile profile) {
        ChainedOptionsBuilder options = StoreSuite.base(profile, profile == Profile.SMOKE ? 900 : 60);
        return profile == Profile.QUICK ? options.warmupIterations(2).measurementIterations(5) : options;
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        boolean smoke = profile == Profile.SMOKE;
        String[] keys = {smoke ? "10000" : "1000000"};
        List<ChainedOptionsBuilder> runs = new ArrayList<>();
        for (String method : new String[] {"get", "put"}) {
            ChainedOptionsBuilder single = base(profile).include(StoreSuite.pattern(PeersSingleThread.class) + method + "$")
                    .param("valueSize", "100").param("order", "RANDOM").param("store", StoreSuite.STORES);
            // Puts: one round of every key per invocation, its close included (see PutRounds).
            runs.add(method.equals("put") ? StoreSuite.rounds(single, keys[0]) : single.param("keyCount", keys));
        }
        int gangOps = smoke ? 1 : ThousandThreads.OPS_PER_THREAD;
        for (String method : new String[] {"get", "put"}) {
            // Each invocation is 100k operations: one warm-up iteration is enough.
            runs.add(StoreSuite.thousandThreads(base(profile), method, keys[0], gangOps).param("store", THREADED)
                    .warmupIterations(smoke ? 0 : 1));
        }
        runs.add(base(profile).include(StoreSuite.pattern(WriteFloor.class)).param("valueSize", "100"));
        int commitOps = smoke ? 1 : GroupCommit.GANG_OPS_PER_THREAD;
        runs.add(base(profile).include(StoreSuite.pattern(GroupCommit.class) + "single$"));
        runs.add(base(profile).include(StoreSuite.pattern(GroupCommit.class) + "gang$")
                .param("opsPerThread", String.valueOf(commitOps))
                .operationsPerInvocation(Gang.THREADS * commitOps));
        runs.add(StoreSuite.openTime(profile, keys));
        return runs;
    }
}
