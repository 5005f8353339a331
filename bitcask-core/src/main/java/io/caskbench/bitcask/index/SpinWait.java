package io.caskbench.bitcask.index;

/**
 * Threading: any thread; no state.
 *
 * <p>The wait of a reader or a put that found another thread halfway through a short step (a slot
 * marked busy, a batch being published): spin a little, then yield. The other thread needs only a
 * core to finish, and on a machine with fewer cores than runnable threads it may have lost its own,
 * so after a few spins the waiter gives its core away instead of burning it.
 */
public final class SpinWait {

    /** Spins before a waiter starts to yield: enough for a step whose thread kept its core. */
    private static final int SPINS_BEFORE_YIELD = 64;

    private SpinWait() {
    }

    /** One pause of a waiter that has already waited {@code attempt} times (counted from 0). */
    public static void pause(int attempt) {
        if (attempt < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
