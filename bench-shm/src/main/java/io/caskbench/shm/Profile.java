package io.caskbench.shm;

import java.util.List;
import java.util.Locale;

/**
 * How long and how big a bench-shm run is: JMH iterations, C anchor iterations and messaging counts.
 * One place, so that Java and C are always timed with the same iteration shape.
 *
 * @param regions region sizes ({@link RegionSize}) for every region benchmark, Java and C
 * @param forks separate runs of every measurement (JMH forks, C processes, messaging sessions), whose
 *     spread the tables print beside each ratio
 * @param warmups warm-up iterations (JMH and C)
 * @param iterations measured iterations (JMH and C)
 * @param iterationMillis length of one iteration (JMH and C)
 * @param messaging counts for the cross-process messaging
 */
public record Profile(String name, List<String> regions, int forks, int warmups, int iterations,
                      int iterationMillis, Messaging messaging) {

    /**
     * Messaging counts. Every iteration also stops at {@code iterationCapMillis}, so a slow machine
     * gets fewer messages, never a longer run.
     *
     * @param warmups warm-up iterations per measurement
     * @param iterations measured iterations per measurement
     * @param roundTrips round trips per iteration
     * @param smallMessages one-way messages per iteration at 64 bytes
     * @param largeMessages one-way messages per iteration at 4 KiB
     * @param iterationCapMillis the time cap of one iteration
     */
    public record Messaging(int warmups, int iterations, int roundTrips, int smallMessages, int largeMessages,
                            int iterationCapMillis) {
    }

    /**
     * The default: 64 KiB, 64 MiB, and a region of at least eight times this machine's L3 cache (read at
     * run time; 256 MiB for a 32 MiB L3), since 64 MiB can be as little as twice the L3 and is then partly
     * served from it. Three forks; about half an hour on 2 cores.
     */
    public static final Profile QUICK = new Profile("quick",
            List.copyOf(new java.util.LinkedHashSet<>(List.of("64KiB", "64MiB", L3Cache.largeRegion(L3Cache.bytes())))),
            3, 2, 3, 300,
            new Messaging(1, 5, 20_000, 200_000, 50_000, 2_000));

    /** The seed's sizes, 64 KiB and 1 GiB, with longer iterations; three forks like the quick profile. */
    public static final Profile FULL = new Profile("full", List.of("64KiB", "1GiB"), 3, 3, 5, 1_000,
            new Messaging(2, 10, 100_000, 1_000_000, 200_000, 5_000));

    /** One short iteration of everything at 64 KiB: proves each benchmark runs, measures nothing. */
    public static final Profile SMOKE = new Profile("smoke", List.of("64KiB"), 1, 0, 1, 20,
            new Messaging(0, 1, 2_000, 5_000, 1_000, 1_000));

    /** The profile named {@code quick}, {@code full} or {@code smoke}. */
    public static Profile of(String name) {
        switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "quick":
            case "":
                return QUICK;
            case "full":
                return FULL;
            case "smoke":
                return SMOKE;
            default:
                throw new IllegalArgumentException("unknown profile " + name + " (quick, full or smoke)");
        }
    }
}
