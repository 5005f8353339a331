package io.caskbench.shm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.Buffer;

/**
 * {@code java.lang.foreign.MemorySegment} (final in JDK 22) for code compiled with {@code --release 17}.
 *
 * <p>Method handles in static finals are constants to the JIT, so a call through them inlines to the
 * same code as a direct call to {@code MemorySegment.set}; reflection per call would not. On a JDK
 * before 22 {@link #AVAILABLE} is false and every other method throws.
 */
public final class Segments {

    /** Whether this JVM has the final FFM API (JDK 22 or later). */
    public static final boolean AVAILABLE = Runtime.version().feature() >= 22;

    private static final MethodHandle OF_BUFFER;
    private static final MethodHandle SET_BYTE;
    private static final MethodHandle FILL;

    static {
        MethodHandle ofBuffer = null;
        MethodHandle setByte = null;
        MethodHandle fill = null;
        if (AVAILABLE) {
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
                Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
                Class<?> ofByte = Class.forName("java.lang.foreign.ValueLayout$OfByte");
                Object javaByte = valueLayout.getField("JAVA_BYTE").get(null);
                ofBuffer = lookup.findStatic(segment, "ofBuffer", MethodType.methodType(segment, Buffer.class))
                        .asType(MethodType.methodType(Object.class, Buffer.class));
                setByte = MethodHandles.insertArguments(
                                lookup.findVirtual(segment, "set",
                                        MethodType.methodType(void.class, ofByte, long.class, byte.class)),
                                1, javaByte)
                        .asType(MethodType.methodType(void.class, Object.class, long.class, byte.class));
                fill = lookup.findVirtual(segment, "fill", MethodType.methodType(segment, byte.class))
                        .asType(MethodType.methodType(Object.class, Object.class, byte.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
        OF_BUFFER = ofBuffer;
        SET_BYTE = setByte;
        FILL = fill;
    }

    private Segments() {
    }

    /** {@code MemorySegment.ofBuffer(buffer)}, typed as Object so this class loads on JDK 17. */
    public static Object ofBuffer(Buffer buffer) {
        require();
        try {
            return (Object) OF_BUFFER.invokeExact(buffer);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code segment.set(ValueLayout.JAVA_BYTE, offset, value)}. */
    public static void setByte(Object segment, long offset, byte value) {
        try {
            SET_BYTE.invokeExact(segment, offset, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code segment.fill(value)}; returns the segment. */
    public static Object fill(Object segment, byte value) {
        try {
            return (Object) FILL.invokeExact(segment, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static void require() {
        if (!AVAILABLE) {
            throw new UnsupportedOperationException(
                    "MemorySegment needs JDK 22 or later; this is " + Runtime.version());
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException) {
            return (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        return new IllegalStateException(t);
    }
}
