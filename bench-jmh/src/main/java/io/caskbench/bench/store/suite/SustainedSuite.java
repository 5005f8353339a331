package io.caskbench.bench.store.suite;

import io.caskbench.bench.store.fixture.StoreParam;
import io.caskbench.bench.store.sustained.SustainedPut;
import java.util.List;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code sustained} suite: {@link SustainedPut}, one store per store kind written for a whole
 * iteration with no swaps, its close timed, long enough in the full profile ({@value #FULL_SECONDS} s) to
 * pass the kernel's dirty-page thresholds. The quick profile's {@value #QUICK_SECONDS} s rows do not, and
 * their label says so through this suite's description.
 *
 * <p>The in-memory reference is left out: it appends every overwrite to its slab, so a sustained
 * overwrite measures its allocation, not a store's work.
 */
public final class SustainedSuite extends PeerSuite {

    /** Seconds of a row in the full profile: past the kernel's dirty thresholds on this class of machine. */
    static final int FULL_SECONDS = 60;

    /** Seconds of a row in the quick profile: a check of the shape, short of the kernel's write-back. */
    static final int QUICK_SECONDS = 5;

    /** Every store of the default run but the in-memory reference: {@link SustainedPut}'s default stores. */
    static final String[] STORES = StoreParam.defaults(StoreParam.MainSettings.class).toArray(String[]::new);

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public SustainedSuite() {
    }

    @Override
    public String name() {
        return "sustained";
    }

    @Override
    public String description() {
        return "sustained puts: one store written for a whole iteration (60 s in full, 5 s in quick), its close"
                + " timed, every store";
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        boolean smoke = profile == Profile.SMOKE;
        ChainedOptionsBuilder sustained = StoreSuite.base(profile).include(StoreSuite.pattern(SustainedPut.class))
                .param("keyCount", smoke ? StoreSuite.SMOKE_KEYS : StoreSuite.POINT).param("valueSize", "100")
                .param("order", "RANDOM").param("store", STORES);
        if (!smoke) {
            int seconds = profile == Profile.FULL ? FULL_SECONDS : QUICK_SECONDS;
            sustained.warmupIterations(1).warmupTime(TimeValue.seconds(Math.min(5, seconds)))
                    .measurementIterations(1).measurementTime(TimeValue.seconds(seconds));
        }
        return List.of(sustained);
    }
}
