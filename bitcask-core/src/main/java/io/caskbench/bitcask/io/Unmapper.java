package io.caskbench.bitcask.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Threading: static helpers; the caller guarantees no thread touches a buffer it unmaps.
 *
 * <p>Releases a mapping now instead of whenever the garbage collector gets to it. Without this,
 * mappings pile up across segment rollovers and reopen cycles until the process runs out of
 * address space or file handles (how a Java mmap test of many small files once ran out of memory).
 *
 * <p>The one class of this internal package that code outside the store may use, and is kept stable
 * for it: the file-reading benchmarks unmap their own mappings with it.
 */
public final class Unmapper {

    private static final MethodHandle INVOKE_CLEANER = findCleaner();

    private Unmapper() {
    }

    private static MethodHandle findCleaner() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field field = unsafeClass.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            Object unsafe = field.get(null);
            return MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(unsafe);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError("cannot find sun.misc.Unsafe.invokeCleaner: " + e);
        }
    }

    /**
     * Unmaps {@code buffer}. The caller guarantees that no thread touches it afterwards: an access
     * to an unmapped buffer crashes the JVM.
     */
    public static void unmap(MappedByteBuffer buffer) {
        try {
            INVOKE_CLEANER.invokeExact((ByteBuffer) buffer);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("unmap failed", t);
        }
    }
}
