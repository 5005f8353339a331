package io.caskbench.bitcask.io;

import java.nio.file.Path;
import java.util.concurrent.ThreadFactory;

/**
 * Threading: static helpers, safe everywhere.
 *
 * <p>The store's threads and its waits that must not be cut short.
 */
public final class Threads {

    private Threads() {
    }

    /** A blocking wait that close and a racing writer must finish. */
    @FunctionalInterface
    public interface BlockingWait {
        /** Waits. */
        void await() throws InterruptedException;
    }

    /** Threads for a store's executors: daemons, named after the store's directory. */
    public static ThreadFactory daemons(String role, Path dir) {
        return r -> {
            Thread t = new Thread(r, "bitcask-" + role + "-" + dir.getFileName());
            t.setDaemon(true);
            return t;
        };
    }

    /** Waits to the end; an interrupt on the way is kept for later, not lost. */
    public static void uninterruptibly(BlockingWait wait) {
        boolean interrupted = false;
        while (true) {
            try {
                wait.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
