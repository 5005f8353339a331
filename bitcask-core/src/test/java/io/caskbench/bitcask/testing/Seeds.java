package io.caskbench.bitcask.testing;

/** The seed of randomised tests: {@code -Dcaskbench.seed} replays a failure, otherwise a fresh one each run. */
public final class Seeds {

    private Seeds() {
    }

    /** The first seed of a run; tests derive their cases' seeds from it and print them on failure. */
    public static long base() {
        return Long.getLong("caskbench.seed", System.nanoTime());
    }
}
