package io.caskbench.bench.store.suite;

import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.threads.SeedWorkload;
import java.util.List;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * The {@code seed} suite: the reference experiment's own workload ({@link SeedWorkload}: 1M puts, 1M gets,
 * then 1000 threads x 1000 of each), on BitCask in the quick profile and on every store in the full one.
 */
public final class SeedSuite extends PeerSuite {

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public SeedSuite() {
    }

    @Override
    public String name() {
        return "seed";
    }

    @Override
    public String description() {
        return "the reference experiment's workload: 1M puts and gets on one thread and on 1000";
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        String[] stores = profile == Profile.FULL ? StoreSuite.STORES : StoreSuite.BITCASK;
        if (profile == Profile.SMOKE) {
            return List.of(seed(profile, "single", stores),
                    seed(profile, "threads", stores).param("opsPerThread", "1").operationsPerInvocation(Gang.THREADS));
        }
        return List.of(seed(profile, "", stores));
    }

    private static ChainedOptionsBuilder seed(Profile profile, String methods, String[] stores) {
        return StoreSuite.base(profile).include(StoreSuite.pattern(SeedWorkload.class) + methods)
                .param("store", stores);
    }
}
