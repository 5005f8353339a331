package io.caskbench.bench.store.suite;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.threads.CarrierCounters;
import io.caskbench.bench.store.threads.GroupCommit;
import io.caskbench.bench.store.threads.ThousandThreads;
import io.caskbench.bench.store.threads.VirtualThreads;
import io.caskbench.bench.store.threads.VirtualThreadsAlways;
import io.caskbench.report.table.VirtualTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * The {@code virtual} suite (JDK 21 and newer): the store's gets, puts and forced puts on 1000 and on
 * 100,000 virtual threads ({@link VirtualThreads}, {@link VirtualThreadsAlways}), each beside the same
 * operations on 1000 platform threads ({@link ThousandThreads}, {@link GroupCommit#gang}), with the pins
 * and the carriers the JDK added ({@link CarrierCounters}) on every virtual-thread row.
 *
 * <p>Every row does {@value #OPS} operations per invocation, as the {@code threads} suite's rows do: 100
 * per thread on 1000 threads of either kind, one per thread on 100,000 virtual threads, so the 1000-thread
 * rows differ only in the kind of thread. The quick profile runs BitCask alone (its two backends of every
 * JDK; forced puts on FILE_CHANNEL only), 15 rows of three forks of two measured iterations, about four
 * minutes; the full profile adds every backend and the peers where they run on virtual threads: every
 * peer puts, and every one but LMDB gets. LMDB's adapter keeps one reader slot per thread, so every
 * invocation's new virtual threads take new ones until LMDB's reader table is full
 * ({@code Env.ReadersFullException}, seen on Temurin 25).
 */
public final class VirtualSuite extends PeerSuite {

    /** Operations per invocation of every row of the suite. */
    static final int OPS = ThousandThreads.OPS;

    /** Measured iterations per fork in the quick profile. */
    static final int QUICK_ITERATIONS = 2;

    /** The JDK that brought virtual threads. */
    static final int VIRTUAL_THREADS_JDK = 21;

    /** BitCask in every profile: its two backends that every JDK has. */
    static final String[] QUICK_STORES = StoreSuite.names(StoreKind.BITCASK_MAPPED, StoreKind.BITCASK_FILE_CHANNEL);

    /** The peers whose gets run on virtual threads; see the class comment for LMDB. */
    static final String[] GET_PEERS = StoreSuite.names(StoreKind.ROCKSDB, StoreKind.CHRONICLE_MAP, StoreKind.MAPDB,
            StoreKind.H2_MVSTORE, StoreKind.CONCURRENT_HASH_MAP, StoreKind.HARNESS);

    /** The peers whose puts run on virtual threads: every one. */
    static final String[] PUT_PEERS = StoreSuite.concat(GET_PEERS, StoreSuite.names(StoreKind.LMDB));

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public VirtualSuite() {
    }

    @Override
    public String name() {
        return "virtual";
    }

    @Override
    public String description() {
        return "gets, puts and forced puts on 1000 and 100,000 virtual threads beside 1000 platform threads,"
                + " with pinned carriers and carriers added (JDK 21+)";
    }

    /** Virtual threads are JDK 21's; an older JVM runs nothing of this suite. */
    @Override
    public Optional<String> unavailable() {
        int feature = Runtime.version().feature();
        return feature >= VIRTUAL_THREADS_JDK ? Optional.empty()
                : Optional.of("virtual threads need JDK " + VIRTUAL_THREADS_JDK + " or newer, and this JVM is "
                        + feature + "; run Maven on a newer JDK (its java runs the benchmarks)");
    }

    /**
     * Six runs: gets on virtual threads and on platform threads, puts on both, and forced puts on both. Smoke runs use small stores and a moment per row.
     */
    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        boolean full = profile == Profile.FULL;
        String[] gets = full ? StoreSuite.concat(StoreSuite.BITCASK, GET_PEERS) : QUICK_STORES;
        String[] puts = full ? StoreSuite.concat(StoreSuite.BITCASK, PUT_PEERS) : QUICK_STORES;
        String[] backends = full ? StoreSuite.BACKENDS : new String[] {"FILE_CHANNEL"};
        // As many keys as an invocation has operations, the threads suite's shape: a put round from an empty
        // store ends holding what its label says, and the platform rows match the threads suite's.
        String keys = String.valueOf(OPS);
        String platformOps = String.valueOf(OPS / Gang.THREADS);
        List<ChainedOptionsBuilder> runs = List.of(
                gang(profile, VirtualThreads.class, "get$", keys, gets),
                gang(profile, ThousandThreads.class, "get$", keys, gets).param("opsPerThread", platformOps),
                gang(profile, VirtualThreads.class, "put$", keys, puts),
                gang(profile, ThousandThreads.class, "put$", keys, puts).param("opsPerThread", platformOps),
                StoreSuite.base(profile).include(StoreSuite.pattern(VirtualThreadsAlways.class) + "put$")
                        .param("backend", backends).operationsPerInvocation(OPS),
                StoreSuite.base(profile).include(StoreSuite.pattern(GroupCommit.class) + "gang$")
                        .param("backend", backends).param("sync", "ALWAYS").param("opsPerThread", platformOps)
                        .operationsPerInvocation(OPS));
        if (profile == Profile.QUICK) {
            // Two measured iterations instead of the store suites' three keep the quick run near four minutes;
            // the forks, which the intervals rest on, stay at three.
            runs.forEach(r -> r.measurementIterations(QUICK_ITERATIONS));
        }
        return runs;
    }

    /** {@code benchmark}'s methods matching {@code methods} at the suites' shape, {@value #OPS} operations per invocation. */
    private static ChainedOptionsBuilder gang(Profile profile, Class<?> benchmark, String methods, String keys,
            String[] stores) {
        return StoreSuite.base(profile).include(StoreSuite.pattern(benchmark) + methods)
                .param("valueSize", "100").param("order", "RANDOM").param("keyCount", keys)
                .param("store", stores).operationsPerInvocation(OPS);
    }

    /** bench-report's virtual-thread table of the JSON this run just wrote. */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(VirtualTables.render(readResults(results)).text());
    }
}
