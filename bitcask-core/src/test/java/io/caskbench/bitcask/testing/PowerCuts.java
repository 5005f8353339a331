package io.caskbench.bitcask.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.fail;

/**
 * Runs the cycles of a power-loss test, each with a seed of its own in a scratch folder of its own, and
 * fails once with every cycle that broke the contract (the first 20), each naming its seed.
 */
public final class PowerCuts {

    /** One cycle: what went wrong, naming its seed, or null. */
    @FunctionalInterface
    public interface Cycle {
        /** Runs the cycle of {@code seed} in {@code dir}. */
        String run(long seed, Path dir) throws Exception;
    }

    private PowerCuts() {
    }

    /** Runs {@code cycles} cycles under {@code tmp}, seeded from {@link Seeds#base()}; {@code what} names them in a failure. */
    public static void run(Path tmp, int cycles, String what, Cycle cycle) throws Exception {
        long base = Seeds.base();
        List<String> failures = new ArrayList<>();
        try (ScratchDir scratch = ScratchDir.create(tmp, "power")) {
            for (int c = 0; c < cycles; c++) {
                Path cycleDir = scratch.path().resolve("c" + c);
                String failure = cycle.run(base + c, cycleDir);
                if (failure != null) {
                    failures.add(failure);
                }
                ScratchDir.deleteTree(cycleDir);
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + cycles + " " + what + ":\n  "
                    + String.join("\n  ", failures.subList(0, Math.min(20, failures.size()))));
        }
    }
}
