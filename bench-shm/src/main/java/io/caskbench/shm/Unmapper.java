package io.caskbench.shm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Unmaps a {@link MappedByteBuffer} (or frees a direct buffer) now instead of whenever the garbage
 * collector gets to it.
 *
 * <p>Without this a benchmark trial leaves a 1 GiB mapping (and, in /dev/shm, 1 GiB of RAM) alive into
 * the next trial. {@code sun.misc.Unsafe.invokeCleaner} is the only way on JDK 17 and is looked up
 * reflectively so the code compiles with {@code --release 17}. JDK 23+ prints a warning for it unless the
 * JVM runs with {@code --sun-misc-unsafe-memory-access=allow}; {@link #quietFlags()} says when to add it.
 *
 * <p>Not shared with bitcask-core's unmapper on purpose: this module does not depend on the store,
 * and this copy also frees plain direct buffers and names the flags a forked benchmark JVM needs.
 */
public final class Unmapper {

    private static final MethodHandle INVOKE_CLEANER = lookupCleaner();

    private Unmapper() {
    }

    /**
     * Forces the buffer's dirty pages to its file, then unmaps it. The buffer must not be touched
     * afterwards: any access would fault the JVM.
     */
    public static void forceAndUnmap(MappedByteBuffer buffer) {
        buffer.force();
        free(buffer);
    }

    /**
     * Releases a direct buffer's memory (or mapping) now. Mapped buffers should go through
     * {@link #forceAndUnmap}; the buffer must not be touched afterwards.
     */
    public static void free(ByteBuffer buffer) {
        try {
            INVOKE_CLEANER.invokeExact(buffer);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("could not unmap", t);
        }
    }

    /** JVM flags a child JVM of this one needs so that unmapping stays silent (empty below JDK 23). */
    public static java.util.List<String> quietFlags() {
        return Runtime.version().feature() >= 23
                ? java.util.List.of("--sun-misc-unsafe-memory-access=allow")
                : java.util.List.of();
    }

    private static MethodHandle lookupCleaner() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return MethodHandles.lookup()
                    .unreflect(unsafeClass.getMethod("invokeCleaner", ByteBuffer.class))
                    .bindTo(theUnsafe.get(null));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
