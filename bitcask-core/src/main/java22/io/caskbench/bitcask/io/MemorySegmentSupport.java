package io.caskbench.bitcask.io;

/**
 * Threading: static, stateless, safe everywhere.
 *
 * <p>Where the {@code MEMORY_SEGMENT} backend comes from: the JDK 22 version of this class, in
 * {@code META-INF/versions/22} of the multi-release jar. A JVM of 22 or newer loads it in place of
 * the JDK 17 version, which refuses; it has the same methods, and builds the backend.
 */
public final class MemorySegmentSupport {

    /** The JDK the backend needs. */
    public static final int REQUIRED_JDK = 22;

    private MemorySegmentSupport() {
    }

    /** True when this JVM and this build of the store can make the backend; here, always. */
    public static boolean available() {
        return true;
    }

    /** Throws when the backend cannot be made here; in this version, never. */
    public static void requireAvailable() {
        // the FFM API is there: nothing to refuse
    }

    /** A new {@code MEMORY_SEGMENT} backend. */
    public static SegmentBackend create() {
        return new MemorySegmentBackend();
    }
}
