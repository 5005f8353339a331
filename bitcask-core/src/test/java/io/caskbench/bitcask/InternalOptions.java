package io.caskbench.bitcask;

import io.caskbench.bitcask.io.SegmentBackend;

/**
 * Store options with a segment backend of the test's own, for tests outside this package:
 * {@code BitCaskOptions.Builder.segmentBackend} is package-private, so that the internal backend
 * interface stays out of the public API.
 */
public final class InternalOptions {

    private InternalOptions() {
    }

    /** {@code builder} set to reach its files through {@code backend}. */
    public static BitCaskOptions.Builder withSegmentBackend(BitCaskOptions.Builder builder, SegmentBackend backend) {
        return builder.segmentBackend(backend);
    }
}
