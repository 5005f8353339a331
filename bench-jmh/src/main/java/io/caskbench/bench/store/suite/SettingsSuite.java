package io.caskbench.bench.store.suite;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.single.PeersSingleThread;
import java.util.List;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * The {@code settings} suite: peers at settings other than their main one, on one thread, each beside
 * its main setting and BitCask MAPPED ({@link PeersSingleThread}).
 *
 * <ul>
 *   <li>gets: LMDB's read transaction renewed every 100 gets or kept for good, beside its main row,
 *       which renews it only after a write;</li>
 *   <li>puts with parity: MapDB and H2 MVStore at the setting that keeps acknowledged writes through a
 *       {@code kill -9}, as BitCask does, where their main one does not. A forced commit per put takes
 *       milliseconds, so every store of this run puts {@link #PARITY_BATCH} keys per invocation.</li>
 * </ul>
 */
public final class SettingsSuite extends PeerSuite {

    /** Puts per invocation of the parity rows; it divides every key count. */
    static final int PARITY_BATCH = 100;

    /** The get rows: each other setting beside its main one and BitCask. */
    static final String[] GETS = StoreSuite.names(StoreKind.BITCASK_MAPPED, StoreKind.LMDB, StoreKind.LMDB_RENEW_100,
            StoreKind.LMDB_TXN_REUSED);

    /** The parity put rows, beside their main settings and BitCask. */
    static final String[] PARITY = StoreSuite.names(StoreKind.BITCASK_MAPPED, StoreKind.MAPDB, StoreKind.MAPDB_TX,
            StoreKind.H2_MVSTORE, StoreKind.H2_MVSTORE_COMMIT);

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public SettingsSuite() {
    }

    @Override
    public String name() {
        return "settings";
    }

    @Override
    public String description() {
        return "peers at their other settings on one thread: LMDB's read transactions, and MapDB and H2"
                + " committing every put";
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        return List.of(StoreSuite.peers(profile, "get").param("store", GETS),
                StoreSuite.peers(profile, "put").param("store", PARITY).operationsPerInvocation(PARITY_BATCH));
    }
}
