package io.caskbench.bench.store.suite;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.bench.open.OpenBench;
import io.caskbench.bench.store.single.PeersSingleThread;
import io.caskbench.report.table.ScaleTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * The {@code scale} suite: how each store's cost grows with the number of keys. Its comparison gives every
 * store's single-thread get and put at 100k, 1M and 10M keys with the 10M / 1M ratio and its spread, BitCask's
 * open time with hint files and by a full scan at 1M and 10M keys, and the goals stated at 10M keys.
 *
 * <ul>
 *   <li>get and put: {@link PeersSingleThread}, every store of the store suite, 16-byte keys, 100-byte
 *       values, random order; puts go into a store prefilled with every key ({@code prefilled=true}), so
 *       it holds N keys while measured, and report the keys it held as {@code keysInStore};</li>
 *   <li>open time: {@link OpenBench}, BitCask MAPPED with its hint files and without them.</li>
 * </ul>
 *
 * <p>It has no benchmark of its own, so the store and targets smoke tests already run every benchmark it
 * uses. The forks need no larger heap than the JVM's default, a quarter of the memory: at 10M keys the
 * heap map holds about 2.2 GB (222 bytes a key) and the in-memory reference 1.6 GB, in a default heap of about
 * 6 GB on a 24 GiB machine. Open time runs with its own 2 GB heap, in which a 10M-key directory takes
 * 256 MiB.
 */
public final class ScaleSuite implements Suite {

    /** Key counts of the get and put rows. */
    static final String[] KEYS = {"100000", "1000000", "10000000"};

    /** Key counts of the open-time rows. */
    static final String[] OPEN_KEYS = {"1000000", "10000000"};

    /** Key counts of a smoke run: small, and each a multiple of the put batch. */
    static final String[] SMOKE_KEYS = {"10000", "20000"};

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public ScaleSuite() {
    }

    @Override
    public String name() {
        return "scale";
    }

    @Override
    public String description() {
        return "every store's get and put at 100k, 1M and 10M keys, and BitCask's open time with hints and by"
                + " a full scan at 1M and 10M keys";
    }

    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        return base(profile).include(StoreSuite.pattern(PeersSingleThread.class))
                .include(StoreSuite.pattern(OpenBench.class));
    }

    /**
     * The store suite's settings; no 1000-thread benchmark runs here, so the gang time limit never applies.
     */
    private static ChainedOptionsBuilder base(Profile profile) {
        return StoreSuite.base(profile, 900);
    }

    /** Two runs: get and put of every store at each key count, then open time at each of its key counts. */
    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        boolean smoke = profile == Profile.SMOKE;
        String[] keys = smoke ? SMOKE_KEYS : KEYS;
        List<ChainedOptionsBuilder> runs = new ArrayList<>();
        runs.add(stores(profile, "get").param("keyCount", keys));
        // Puts: one round of every key per invocation, its close included (see PutRounds).
        for (String keyCount : keys) {
            runs.add(StoreSuite.rounds(stores(profile, "put"), keyCount));
        }
        runs.add(StoreSuite.openTime(profile, smoke ? SMOKE_KEYS : OPEN_KEYS));
        return runs;
    }

    private static ChainedOptionsBuilder stores(Profile profile, String method) {
        return base(profile).include(StoreSuite.pattern(PeersSingleThread.class) + method + "$")
                .param("valueSize", "100").param("order", "RANDOM").param("store", StoreSuite.STORES)
                .param("prefilled", "true");
    }

    /** bench-report's scale comparison of the JSON this run just wrote. */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(ScaleTables.render(readResults(results)).text());
    }
}
