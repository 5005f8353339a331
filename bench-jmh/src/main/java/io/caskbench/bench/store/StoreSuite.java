package io.caskbench.bench.store;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.RunCommand;
import io.caskbench.bench.Suite;
import io.caskbench.report.ResultFile;
import io.caskbench.report.StoreTables;
import io.caskbench.bitcask.Backend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code store} suite: BitCask on one thread and on 1000, both backends, side by side with RocksDB,
 * LMDB, Chronicle Map, MapDB, H2 MVStore, a heap ConcurrentHashMap reference, the in-memory reference and the
 * harness alone, plus the reference experiment's workload.
 *
 * <p>It is several JMH runs because its parts need different parameter grids (see {@link #runs}):
 * <ol>
 *   <li>{@code bitcask}: {@link BitCaskSingleThread}, the backend grid, MEMORY_SEGMENT included on JDK 22+;</li>
 *   <li>{@code peers}: {@link PeersSingleThread}, every store at 1M keys, 100-byte values, random order,
 *       and the peers whose fastest settings lose writes on a {@code kill -9} again at the settings that
 *       do not ({@link #PARITY}, in rounds of {@value #PARITY_BATCH} puts);</li>
 *   <li>{@code sustained}: {@link SustainedPut}, one store per store kind written for a whole iteration,
 *       its close timed (5 s in quick, 60 s in full);</li>
 *   <li>{@code threads}: {@link ThousandThreads}, the same point with 1000 threads, every store at 100
 *       operations per thread;</li>
 *   <li>{@code cross-check}: {@link JmhThreadsCrossCheck}, JMH's {@code @Threads(1000)}, for contrast
 *       (full profile only);</li>
 *   <li>{@code seed}: {@link SeedWorkload}.</li>
 * </ol>
 * The quick profile keeps the BitCask grid to 100k keys and runs the seed on BitCask only; full runs
 * the whole grid (and 10M keys with 100-byte values), both value sizes for the peers and longer iterations.
 * Both run three forks.
 */
public final class StoreSuite implements Suite {

    /** Forks of every measuring profile: separate JVM runs, whose spread the comparison prints. */
    static final int FORKS = 3;

    /** Every BitCask backend this JVM has: MEMORY_SEGMENT only on JDK 22 and newer. */
    static final String[] BACKENDS = Arrays.stream(Backend.values()).filter(Backend::available).map(Enum::name)
            .toArray(String[]::new);

    /** Every BitCask backend this JVM has, as {@code store} parameter values. */
    static final String[] BITCASK = Arrays.stream(BACKENDS).map(b -> "BITCASK_" + b).toArray(String[]::new);

    /** Every store at its fastest settings, the heap map, the in-memory reference and the harness. */
    static final String[] STORES = {"BITCASK_MAPPED", "BITCASK_FILE_CHANNEL", "ROCKSDB", "LMDB", "CHRONICLE_MAP",
        "MAPDB", "H2_MVSTORE", "CONCURRENT_HASH_MAP", "IN_MEMORY_REFERENCE", "HARNESS"};

    /**
     * The stores of the sustained rows: {@link #STORES} but the in-memory reference, which keeps every
     * overwritten record; replacing 1M keys round after round for 60 s would hold tens of GB of heap.
     */
    static final String[] SUSTAINED_STORES = Arrays.stream(STORES).filter(s -> !s.equals("IN_MEMORY_REFERENCE"))
            .toArray(String[]::new);

    /**
     * Peers at the setting that keeps acknowledged writes through a {@code kill -9}, as BitCask does, where
     * their fastest one does not. Single-threaded puts only: their gets are the same code, and with a
     * commit per put 1000 threads would take many minutes per invocation.
     */
    static final String[] PARITY = {"MAPDB_TX", "H2_MVSTORE_COMMIT"};

    /**
     * Sensitivity rows of gets: LMDB's read transaction renewed every 100 gets, or kept for good, beside
     * the main row, which renews it only after a write.
     */
    static final String[] SENSITIVE_GETS = {"LMDB", "LMDB_RENEW_100", "LMDB_TXN_REUSED"};

    /**
     * Puts per round of the parity rows: with a forced commit per put (milliseconds for MapDB) a 1M-key
     * round would take many minutes, so each round puts the first 100 keys into an empty store and closes
     * it. They keep the peers' key count so they stand in the peers' table; their {@code keysInStore}
     * metric says what they held (50 on average).
     */
    static final int PARITY_BATCH = 100;

    /**
     * Measured iterations of the quick profile's peer put rows, each at least one whole 1M-key round with
     * its close (see {@link #rounds}). A store that needs 5 s for a round on 2 cores (RocksDB; MapDB and H2
     * are close) runs three rounds per fork with the warm-up, about 17 s where it ran 4 s when rounds were
     * cut at the iteration's end; stores that round within 1 s take the 3 s they took. The quick peer put
     * rows take about a minute and a half more in all (three forks), not the three minutes that a third
     * measured iteration would cost.
     */
    static final int QUICK_PUT_ROUNDS = 2;

    /** Seconds of a sustained-put row in the full profile: one store written for a whole minute. */
    static final int SUSTAINED_FULL_SECONDS = 60;

    /**
     * Seconds of a sustained-put row in the quick profile: long enough that a 1M-key store fills and the
     * kernel starts writing back dirty pages, short enough for ten stores x three forks to stay within a
     * few minutes.
     */
    static final int SUSTAINED_QUICK_SECONDS = 5;

    @Override
    public String name() {
        return "store";
    }

    @Override
    public String description() {
        return "BitCask put/get on 1 and 1000 threads, both backends, against RocksDB, LMDB, Chronicle Map,"
                + " MapDB, H2 MVStore, a heap ConcurrentHashMap and the in-memory reference, plus the reference experiment's workload";
    }

    /**
     * Every store benchmark with the profile's forks and iterations and the annotations' parameters;
     * {@link #runs} is what {@code BenchMain} actually runs.
     */
    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        return base(profile)
                .include(pattern(BitCaskSingleThread.class))
                .include(pattern(PeersSingleThread.class))
                .include(pattern(ThousandThreads.class))
                .include(pattern(JmhThreadsCrossCheck.class))
                .include(pattern(SeedWorkload.class));
    }

    private static ChainedOptionsBuilder base(Profile profile) {
        // How long one 1000-thread invocation (100k operations; the reference experiment's 1M) may take
        // before it is stopped and failed (see Gang): below 100k/15 s a store has collapsed, and the quick
        // profile cannot afford to wait; the full profile waits for the slow peers. Smoke runs do only
        // 1000 operations, so their limit only catches a hang and never fails a slow machine.
        return base(profile, profile == Profile.QUICK ? 15 : 900);
    }

    /**
     * The settings every store-suite run shares: the footprint profiler, failing fast only in smoke runs,
     * the 1000-thread time limit, and the profile's forks and iterations. The targets suite builds on it.
     */
    static ChainedOptionsBuilder base(Profile profile, int gangLimitSeconds) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .addProfiler(FootprintProfiler.class)
                // A smoke run exists to fail on a broken benchmark; a measuring run keeps going.
                .shouldFailOnError(profile == Profile.SMOKE);
        options.jvmArgsPrepend("-Dcaskbench.gangLimitSeconds=" + gangLimitSeconds);
        return switch (profile) {
            case SMOKE -> options.forks(1).warmupIterations(0).measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(10));
            // Three forks at least for every published row: the spread between runs is what decides
            // whether a ratio is a win (see bench-report's Spread).
            case QUICK -> options.forks(FORKS).warmupIterations(1).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(3).measurementTime(TimeValue.seconds(1));
            case FULL -> options.forks(FORKS).warmupIterations(3).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(2));
        };
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        List<ChainedOptionsBuilder> runs = new ArrayList<>();
        boolean smoke = profile == Profile.SMOKE;
        boolean full = profile == Profile.FULL;
        String[] smallest = {"10000"};

        String[] gridKeys = smoke ? smallest : full ? new String[] {"100000", "1000000"} : new String[] {"100000"};
        for (String method : new String[] {"get", "put"}) {
            for (String keyCount : method.equals("get") ? new String[] {String.join(",", gridKeys)} : gridKeys) {
                ChainedOptionsBuilder grid = base(profile).include(pattern(BitCaskSingleThread.class) + method + "$")
                        .param("backend", BACKENDS)
                        .param("valueSize", smoke ? new String[] {"100"} : new String[] {"100", "4080"})
                        .param("order", smoke ? new String[] {"RANDOM"} : new String[] {"SEQUENTIAL", "RANDOM"});
                runs.add(method.equals("put") ? rounds(grid, keyCount) : grid.param("keyCount", keyCount.split(",")));
            }
        }
        if (full) {
            // 10M keys with 100-byte values only: with 4080-byte ones a store holds 41 GB, more than the
            // machine's memory, and its gets would time the disk instead of the store.
            runs.add(base(profile).include(pattern(BitCaskSingleThread.class) + "get$").param("backend", BACKENDS)
                    .param("keyCount", "10000000").param("valueSize", "100").param("order", "SEQUENTIAL", "RANDOM"));
            runs.add(rounds(base(profile).include(pattern(BitCaskSingleThread.class) + "put$").param("backend", BACKENDS)
                    .param("valueSize", "100").param("order", "SEQUENTIAL", "RANDOM"), "10000000"));
        }

        String peerKeys = smoke ? "10000" : "1000000";
        runs.add(peers(profile, "get").param("keyCount", peerKeys).param("store", concat(STORES, SENSITIVE_GETS)));
        ChainedOptionsBuilder peerPuts = rounds(peers(profile, "put").param("store", STORES), peerKeys);
        runs.add(profile == Profile.QUICK ? peerPuts.measurementIterations(QUICK_PUT_ROUNDS) : peerPuts);
        // A forced commit per put (MapDB) takes milliseconds: rounds of 100 puts, not 1M (see PARITY_BATCH).
        runs.add(peers(profile, "put").param("keyCount", peerKeys).param("store", PARITY)
                .operationsPerInvocation(PARITY_BATCH));

        // Sustained puts: one store for the whole iteration, its close timed (see SustainedPut).
        ChainedOptionsBuilder sustained = only(profile, SustainedPut.class).param("keyCount", smoke ? smallest
                : new String[] {"1000000"}).param("valueSize", "100").param("order", "RANDOM")
                .param("store", SUSTAINED_STORES);
        if (!smoke) {
            int seconds = full ? SUSTAINED_FULL_SECONDS : SUSTAINED_QUICK_SECONDS;
            sustained.warmupIterations(1).warmupTime(TimeValue.seconds(Math.min(5, seconds)))
                    .measurementIterations(1).measurementTime(TimeValue.seconds(seconds));
        }
        runs.add(sustained);

        // Every store at the one 1000-thread shape all of them run in bounded time (ThousandThreads). Smoke:
        // one op per thread keeps the check short; JMH's ops/invocation must match (Gang checks). One
        // warm-up iteration before the measured ones, as in every other run: without it a cold first
        // iteration made a third of the sample and the spread.
        String[] point = {"1000000"};
        String[] keys = smoke ? smallest : point;
        int ops = smoke ? 1 : ThousandThreads.OPS_PER_THREAD;
        runs.add(gang(profile, "get", keys, ops).param("store", concat(STORES, SENSITIVE_GETS)));
        runs.add(gang(profile, "put", keys, ops).param("store", STORES));
        runs.add(gang(profile, "mixed", keys, ops).param("store", STORES));

        // JMH's own 1000 busy threads need minutes per trial on 2 cores just to start and stop their
        // iterations together, so the cross-check runs in the full profile; smoke only proves it runs.
        if (full) {
            runs.add(only(profile, JmhThreadsCrossCheck.class).param("keyCount", point)
                    .param("valueSize", "100").param("order", "RANDOM"));
        } else if (smoke) {
            runs.add(only(profile, JmhThreadsCrossCheck.class).param("keyCount", smallest)
                    .param("valueSize", "100").param("order", "RANDOM").param("store", BITCASK[0]).threads(2));
        }

        String[] seedStores = full ? STORES : BITCASK;
        if (smoke) {
            runs.add(seed(profile, "single", seedStores));
            runs.add(seed(profile, "threads", seedStores).param("opsPerThread", "1")
                    .operationsPerInvocation(Gang.THREADS));
        } else {
            runs.add(seed(profile, "", seedStores));
        }
        return runs;
    }

    /**
     * Put rows of rounds of {@code keyCount} puts: each invocation puts every key once and closes the store
     * ({@link PutRounds}), so JMH's operations per invocation is the key count and every measured
     * iteration holds whole rounds only, at least one. The rounds stay at the rows' key count (1M for the
     * peers, the point the targets are stated at) rather than shrinking to fit 1 s: see
     * {@link #QUICK_PUT_ROUNDS} for what that costs the quick profile.
     */
    static ChainedOptionsBuilder rounds(ChainedOptionsBuilder puts, String keyCount) {
        return puts.param("keyCount", keyCount).operationsPerInvocation(Integer.parseInt(keyCount));
    }

    private static ChainedOptionsBuilder peers(Profile profile, String method) {
        return base(profile).include(pattern(PeersSingleThread.class) + method + "$")
                .param("valueSize", profile == Profile.FULL ? new String[] {"100", "4080"} : new String[] {"100"})
                .param("order", "RANDOM");
    }

    /** The stores of {@code a}, then those of {@code b} not already in {@code a}. */
    static String[] concat(String[] a, String[] b) {
        java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(new String[0]);
    }

    private static ChainedOptionsBuilder seed(Profile profile, String methods, String[] stores) {
        return base(profile).include(pattern(SeedWorkload.class) + methods).param("store", stores);
    }


    /** One 1000-thread method at {@code opsPerThread} operations per thread, JMH's count set to match. */
    private static ChainedOptionsBuilder gang(Profile profile, String method, String[] keys, int opsPerThread) {
        return threads(profile, method).param("keyCount", keys).param("opsPerThread", String.valueOf(opsPerThread))
                .operationsPerInvocation(Gang.THREADS * opsPerThread);
    }

    private static ChainedOptionsBuilder threads(Profile profile, String method) {
        return base(profile).include(pattern(ThousandThreads.class) + method + "$").param("valueSize", "100")
                .param("order", "RANDOM");
    }

    private static ChainedOptionsBuilder only(Profile profile, Class<?> benchmark) {
        return base(profile).include(pattern(benchmark));
    }

    static String pattern(Class<?> benchmark) {
        return "\\." + benchmark.getSimpleName() + "\\.";
    }

    @Override
    public void beforeRuns(Path results) {
        StoppedRuns.clear(results);
        RunCommand.record(results, name());
    }

    /** bench-report's store comparison of the JSON this run just wrote (the rows are the same results). */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(StoreTables.render(ResultFile.read(results.resolve(name() + ".json")).results(),
                StoppedRuns.read(results)).text());
    }
}
