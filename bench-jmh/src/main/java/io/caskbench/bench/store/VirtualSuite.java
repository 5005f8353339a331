package io.caskbench.bench.store;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.report.ResultFile;
import io.caskbench.report.VirtualTables;
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
 * JDK; forced puts on FILE_CHANNEL only), about 15 rows of three forks; the full profile adds every
 * backend and the peers that run on virtual threads. LMDB does not: its adapter keeps one reader slot
 * per thread, and every invocation's new virtual threads would take new ones until LMDB's reader table
 * is full ({@code MDB_READERS_FULL}).
 */
public final class VirtualSuite extends PeerSuite {

    /** Operations per invocation of every row of the suite. */
    static final int OPS = ThousandThreads.OPS;

    /** The JDK that brought virtual threads. */
    static final int VIRTUAL_THREADS_JDK = 21;

    /** BitCask in every profile: its two backends that every JDK has. */
    static final String[] QUICK_STORES = StoreSuite.names(StoreKind.BITCASK_MAPPED, StoreKind.BITCASK_FILE_CHANNEL);

    /** The peers that run on virtual threads; see the class comment for LMDB. */
    static final String[] PEERS = StoreSuite.names(StoreKind.ROCKSDB, StoreKind.CHRONICLE_MAP, StoreKind.MAPDB,
            StoreKind.H2_MVSTORE, StoreKind.CONCURRENT_HASH_MAP, StoreKind.HARNESS);

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
     * Five runs: gets and puts on virtual threads, the same on platform threads, forced puts on virtual
     * threads, and the same on platform threads. Smoke runs use small stores and a moment per row.
     */
    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        boolean smoke = profile == Profile.SMOKE;
        String[] stores = profile == Profile.FULL ? StoreSuite.concat(StoreSuite.BITCASK, PEERS) : QUICK_STORES;
        String[] backends = profile == Profile.FULL ? StoreSuite.BACKENDS : new String[] {"FILE_CHANNEL"};
        // Gets read a filled store of the suites' point; a put round puts at most every key once, so a
        // smoke run, which only proves the rows run, takes as many keys as one round's operations.
        String keys = smoke ? String.valueOf(OPS) : StoreSuite.POINT;
        return List.of(
                gang(profile, VirtualThreads.class, "get$", keys, stores),
                gang(profile, VirtualThreads.class, "put$", keys, stores),
                gang(profile, ThousandThreads.class, "(get|put)$", keys, stores)
                        .param("opsPerThread", String.valueOf(OPS / Gang.THREADS)),
                StoreSuite.base(profile).include(StoreSuite.pattern(VirtualThreadsAlways.class) + "put$")
                        .param("backend", backends).operationsPerInvocation(OPS),
                StoreSuite.base(profile).include(StoreSuite.pattern(GroupCommit.class) + "gang$")
                        .param("backend", backends).param("sync", "ALWAYS")
                        .param("opsPerThread", String.valueOf(OPS / Gang.THREADS)).operationsPerInvocation(OPS));
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
        return Optional.of(VirtualTables.render(ResultFile.read(results.resolve(name() + ".json")).results()).text());
    }
}
