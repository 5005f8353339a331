package io.caskbench.bitcask.io;

import io.caskbench.bitcask.testing.FaultyBackend;

/** The fault-injecting wrapper must itself be a correct backend while no fault is armed. */
class FaultyBackendContractTest extends SegmentBackendContract {
    @Override
    SegmentBackend backend() {
        return new FaultyBackend(new MappedBackend());
    }
}
