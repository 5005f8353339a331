package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCaskOptions;

/** Store options the tests share: small segments, so that a few kilobytes of data roll over. */
public final class TestOptions {

    private TestOptions() {
    }

    /** Defaults with {@code backend} and segments of {@code segmentSize} bytes. */
    public static BitCaskOptions with(Backend backend, long segmentSize) {
        return BitCaskOptions.builder().backend(backend).segmentSize(segmentSize).build();
    }
}
