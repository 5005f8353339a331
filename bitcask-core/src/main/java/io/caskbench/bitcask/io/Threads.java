package io.caskbench.bitcask.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.concurrent.ThreadFactory;

/**
 * Threading: static helpers, safe everywhere.
 *
 * <p>The store's threads and its waits that must not be cut short.
 */
public final class Threads {

    /** {@code Thread::isVirtual} where the JDK has it (21 and newer), else null; final. */
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private Threads() {
    }

    /** Whether the calling thread is a virtual thread; always false before JDK 21. */
    public static boolean onVirtualThread() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) {
            return false; // isVirtual throws nothing; a JDK without it has no virtual threads
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
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
