package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.MappedBackend;
import io.caskbench.bitcask.io.MemorySegmentSupport;
import io.caskbench.bitcask.io.SegmentBackend;

import java.util.Arrays;
import java.util.List;

/**
 * The backends a store can use on this JVM, for the tests that run once per backend: every one on
 * JDK 22 and newer, all but {@link Backend#MEMORY_SEGMENT} before. A test that would fail for the
 * lack of a backend instead leaves it out; {@code MemorySegmentAvailabilityTest} checks that it is
 * left out exactly when the JDK is older than 22.
 */
public final class Backends {

    private Backends() {
    }

    /** The backends of this JVM, in declaration order. */
    public static List<Backend> available() {
        return Arrays.stream(Backend.values()).filter(Backend::available).toList();
    }

    /**
     * The segment backend behind {@code backend}, for tests outside the store's package, which
     * cannot call the package-private {@code Backend.create}.
     */
    public static SegmentBackend segmentBackend(Backend backend) {
        return switch (backend) {
            case MAPPED -> new MappedBackend();
            case FILE_CHANNEL -> new FileChannelBackend();
            case MEMORY_SEGMENT -> MemorySegmentSupport.create();
        };
    }
}
