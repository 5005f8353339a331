package io.caskbench.bitcask.io;

/**
 * Threading: static, stateless, safe everywhere.
 *
 * <p>Where the {@code MEMORY_SEGMENT} backend comes from. The backend needs the FFM API, final in
 * JDK 22, while the store is built for JDK 17; bitcask-core is therefore a multi-release jar, and
 * this class is the one the two releases tell apart. This is the JDK 17 version: it refuses. The
 * JDK 22 version, in {@code META-INF/versions/22}, has the same methods and builds the backend; a
 * JVM of 22 or newer loads it instead of this one, and only from a jar built on JDK 22 or newer.
 */
public final class MemorySegmentSupport {

    /** The JDK the backend needs. */
    public static final int REQUIRED_JDK = 22;

    private MemorySegmentSupport() {
    }

    /** True when this JVM and this build of the store can make the backend; here, never. */
    public static boolean available() {
        return false;
    }

    /**
     * Throws when the backend cannot be made here; in this version, always.
     *
     * @throws IllegalArgumentException naming the JDK the backend needs and the one running
     */
    public static void requireAvailable() {
        int running = Runtime.version().feature();
        if (running < REQUIRED_JDK) {
            throw new IllegalArgumentException("MEMORY_SEGMENT needs JDK " + REQUIRED_JDK + " or newer; this is JDK "
                    + running + ": choose MAPPED or FILE_CHANNEL, or run on JDK " + REQUIRED_JDK + "+");
        }
        // A new enough JVM that still loaded this class: the jar was built on an older JDK, or the
        // classes are read from a directory, where the JVM does not look for versioned classes.
        throw new IllegalArgumentException("MEMORY_SEGMENT needs JDK " + REQUIRED_JDK + " or newer and a bitcask-core"
                + " jar built on one; this is JDK " + running + ", but this build of bitcask-core has no JDK "
                + REQUIRED_JDK + " classes: use a jar built on JDK " + REQUIRED_JDK + "+, or choose MAPPED or FILE_CHANNEL");
    }

    /**
     * The backend; in this version it is refused.
     *
     * @throws IllegalArgumentException as {@link #requireAvailable()}
     */
    public static SegmentBackend create() {
        requireAvailable();
        throw new AssertionError("requireAvailable returned on a build without the backend");
    }
}
