package io.caskbench.bench.store.suite;

import io.caskbench.bench.store.single.BitCaskSingleThread;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * The {@code backends} suite: BitCask's backends side by side on one thread across store size, value
 * size and read order ({@link BitCaskSingleThread}), MEMORY_SEGMENT included on JDK 22 and newer. The
 * quick profile runs 100k keys; the full profile 100k and 1M, and 10M keys with 100-byte values.
 */
public final class BackendsSuite extends PeerSuite {

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public BackendsSuite() {
    }

    @Override
    public String name() {
        return "backends";
    }

    @Override
    public String description() {
        return "BitCask's backends on one thread across key count, value size and read order";
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        boolean smoke = profile == Profile.SMOKE;
        boolean full = profile == Profile.FULL;
        String[] keys = smoke ? new String[] {StoreSuite.SMOKE_KEYS}
                : full ? new String[] {"100000", StoreSuite.POINT} : new String[] {"100000"};
        String[] values = smoke ? new String[] {"100"} : new String[] {"100", "4080"};
        String[] orders = smoke ? new String[] {"RANDOM"} : new String[] {"SEQUENTIAL", "RANDOM"};
        List<ChainedOptionsBuilder> runs = new ArrayList<>();
        runs.add(grid(profile, "get").param("keyCount", keys).param("valueSize", values).param("order", orders));
        // Puts: one round of every key per invocation, its close included (see PutRounds), so one run per
        // key count, whose operations per invocation it is.
        for (String keyCount : keys) {
            runs.add(StoreSuite.rounds(grid(profile, "put"), keyCount).param("valueSize", values)
                    .param("order", orders));
        }
        if (full) {
            // 10M keys with 100-byte values only: with 4080-byte ones a store holds 41 GB, more than the
            // machine's memory, and its gets would time the disk instead of the store.
            runs.add(grid(profile, "get").param("keyCount", "10000000").param("valueSize", "100")
                    .param("order", "SEQUENTIAL", "RANDOM"));
            runs.add(StoreSuite.rounds(grid(profile, "put"), "10000000").param("valueSize", "100")
                    .param("order", "SEQUENTIAL", "RANDOM"));
        }
        return runs;
    }

    private static ChainedOptionsBuilder grid(Profile profile, String method) {
        return StoreSuite.base(profile).include(StoreSuite.pattern(BitCaskSingleThread.class) + method + "$")
                .param("backend", StoreSuite.BACKENDS);
    }
}
