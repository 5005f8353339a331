package io.caskbench.bitcask.io;

import io.caskbench.bitcask.testing.PowerLossBackend;

/** The power-loss model must itself be a correct backend while the power is on. */
class PowerLossBackendContractTest extends SegmentBackendContract {
    @Override
    SegmentBackend backend() {
        return new PowerLossBackend(new MappedBackend(), dir);
    }

    /** The model keeps what each file holds in the heap, so it cannot take a file of 2 GiB. */
    @Override
    boolean takesHugeFiles() {
        return false;
    }
}
