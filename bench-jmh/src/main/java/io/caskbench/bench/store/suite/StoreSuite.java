package io.caskbench.bench.store.suite;

import io.caskbench.bench.open.OpenBench;
import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.FootprintProfiler;
import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.fixture.PutRounds;
import io.caskbench.bench.store.fixture.StoreParam;
import io.caskbench.bench.store.single.PeersSingleThread;
import io.caskbench.bench.store.threads.ThousandThreads;
import io.caskbench.bitcask.Backend;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code store} suite, the default run: single-thread get and put of BitCask (MAPPED and
 * FILE_CHANNEL) beside RocksDB, LMDB, Chronicle Map, MapDB and H2 MVStore at their main settings, the
 * heap map, the in-memory reference and the harness alone ({@link PeersSingleThread}, 1M keys of 16
 * bytes, 100-byte values, random order). Two JMH runs, gets then puts.
 *
 * <p>What used to run beside it lives in suites of its own, so that the default stays about ten
 * minutes: {@link ThreadsSuite} (1000 threads), {@link BackendsSuite} (BitCask's backend grid),
 * {@link SettingsSuite} (peers at their other settings), {@link SeedSuite} (the reference experiment's
 * workload). This class also holds the settings all of them share ({@link #base}).
 */
public final class StoreSuite extends PeerSuite {

    /** Forks of the quick profile: three, so a spread can be printed; its verdicts are indicative. */
    static final int FORKS = 3;

    /** Forks of the full profile: every published headline and goal row comes from at least five. */
    static final int FULL_FORKS = 5;

    /** Every BitCask backend this JVM has: MEMORY_SEGMENT only on JDK 22 and newer. */
    static final String[] BACKENDS = Arrays.stream(Backend.values()).filter(Backend::available).map(Enum::name)
            .toArray(String[]::new);

    /** Every BitCask backend this JVM has, as {@code store} parameter values. */
    static final String[] BITCASK = Arrays.stream(BACKENDS).map(b -> "BITCASK_" + b).toArray(String[]::new);

    /** The peers' settings other than their main one: a commit per put, LMDB's read transactions. */
    static final List<String> OTHER_SETTINGS = List.of(names(StoreKind.MAPDB_TX, StoreKind.H2_MVSTORE_COMMIT,
            StoreKind.LMDB_RENEW_100, StoreKind.LMDB_TXN_REUSED));

    /**
     * Every store at its main settings, the heap map, the in-memory reference and the harness: the
     * benchmarks' default stores ({@link StoreParam.Every}) but the other settings.
     */
    static final String[] STORES = StoreParam.defaults(StoreParam.Every.class).stream()
            .filter(s -> !OTHER_SETTINGS.contains(s)).toArray(String[]::new);

    /** Key count of every measuring profile's single-thread rows: the point the targets are stated at. */
    static final String POINT = "1000000";

    /** Key count of smoke runs. */
    static final String SMOKE_KEYS = "10000";

    /**
     * Measured iterations of the quick profile's put rows, each at least one whole 1M-key round with
     * its close (see {@link #rounds}). A store that needs 5 s for a round on 2 cores (RocksDB; MapDB and H2
     * are close) runs three rounds per fork with the warm-up, about 17 s where it ran 4 s when rounds were
     * cut at the iteration's end; stores that round within 1 s take the 3 s they took.
     */
    static final int QUICK_PUT_ROUNDS = 2;

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public StoreSuite() {
    }

    @Override
    public String name() {
        return "store";
    }

    @Override
    public String description() {
        return "single-thread get and put of BitCask (MAPPED, FILE_CHANNEL) against RocksDB, LMDB, Chronicle Map,"
                + " MapDB, H2 MVStore, a heap ConcurrentHashMap, the in-memory reference and the harness";
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        // peers() names the key count; a round puts every key once (see rounds).
        ChainedOptionsBuilder puts = peers(profile, "put").param("store", STORES)
                .operationsPerInvocation(Integer.parseInt(profile == Profile.SMOKE ? SMOKE_KEYS : POINT));
        return List.of(peers(profile, "get").param("store", STORES),
                profile == Profile.QUICK ? puts.measurementIterations(QUICK_PUT_ROUNDS) : puts);
    }

    /** {@link PeersSingleThread}'s {@code method} at the suite's point (smoke: at 10k keys). */
    static ChainedOptionsBuilder peers(Profile profile, String method) {
        return base(profile).include(pattern(PeersSingleThread.class) + method + "$")
                .param("keyCount", profile == Profile.SMOKE ? SMOKE_KEYS : POINT)
                .param("valueSize", profile == Profile.FULL ? new String[] {"100", "4080"} : new String[] {"100"})
                .param("order", "RANDOM");
    }

    /** The store suites' settings with their 1000-thread limit: 15 s per invocation in quick, 900 s in full. */
    static ChainedOptionsBuilder base(Profile profile) {
        // How long one 1000-thread invocation may take before it is stopped and failed (see Gang): below
        // 1M/15 s = 67k ops/s a store has collapsed under contention, and the quick profile cannot afford
        // to wait; the full profile waits for the slow peers. Smoke runs do only 1000 operations, so their
        // limit only catches a hang and never fails a slow machine.
        return base(profile, profile == Profile.QUICK ? 15 : 900);
    }

    /**
     * The settings every store-suite run shares: the footprint profiler, failing fast only in smoke runs,
     * the 1000-thread time limit, and the profile's forks and iterations. The targets and scale suites
     * build on it.
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
            // Three forks at least for every row: the spread between runs is what decides whether a
            // ratio is a win (see bench-report's Spread); with three the verdicts are indicative.
            case QUICK -> options.forks(forks(profile)).warmupIterations(1).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(3).measurementTime(TimeValue.seconds(1));
            case FULL -> options.forks(forks(profile)).warmupIterations(3).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(2));
        };
    }

    /** Forks of a measuring profile: {@link #FULL_FORKS} in the full one, {@link #FORKS} otherwise. */
    static int forks(Profile profile) {
        return profile == Profile.FULL ? FULL_FORKS : FORKS;
    }

    /**
     * Put rows of rounds of {@code keyCount} puts: each invocation puts every key once and closes the store
     * ({@link PutRounds}), so JMH's operations per invocation is the key count and every measured
     * iteration holds whole rounds only, at least one.
     */
    static ChainedOptionsBuilder rounds(ChainedOptionsBuilder puts, String keyCount) {
        return puts.param("keyCount", keyCount).operationsPerInvocation(Integer.parseInt(keyCount));
    }

    /**
     * {@link ThousandThreads}'s {@code method} at {@code opsPerThread} operations per thread on
     * {@code keyCount} keys, 100-byte values in random order, JMH's operations per invocation set to match.
     */
    static ChainedOptionsBuilder thousandThreads(ChainedOptionsBuilder base, String method, String keyCount,
            int opsPerThread) {
        return base.include(pattern(ThousandThreads.class) + method + "$").param("keyCount", keyCount)
                .param("valueSize", "100").param("order", "RANDOM").param("opsPerThread", String.valueOf(opsPerThread))
                .operationsPerInvocation(Gang.THREADS * opsPerThread);
    }

    /**
     * Open time ({@link OpenBench}) at {@code keyCounts}, with a GC between single-shot opens so that one
     * open's garbage is not collected inside the next: the profile's forks and two warm-up opens.
     */
    static ChainedOptionsBuilder openTime(Profile profile, String... keyCounts) {
        boolean smoke = profile == Profile.SMOKE;
        ChainedOptionsBuilder open = new OptionsBuilder().include(pattern(OpenBench.class))
                .shouldFailOnError(smoke).shouldDoGC(true).param("keyCount", keyCounts);
        return smoke ? open.warmupIterations(0).measurementIterations(1)
                : open.forks(forks(profile)).warmupIterations(2);
    }

    /** The stores of {@code a}, then those of {@code b} not already in {@code a}. */
    static String[] concat(String[] a, String[] b) {
        LinkedHashSet<String> all = new LinkedHashSet<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(new String[0]);
    }

    /** The names of {@code kinds}, as {@code store} parameter values. */
    static String[] names(StoreKind... kinds) {
        return Arrays.stream(kinds).map(Enum::name).toArray(String[]::new);
    }

    /** A pattern matching the benchmarks of {@code benchmark}'s class, for an include. */
    static String pattern(Class<?> benchmark) {
        return "\\." + benchmark.getSimpleName() + "\\.";
    }
}
