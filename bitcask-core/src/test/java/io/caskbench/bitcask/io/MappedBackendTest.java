package io.caskbench.bitcask.io;

class MappedBackendTest extends SegmentBackendContract {
    @Override
    SegmentBackend backend() {
        return new MappedBackend();
    }
}
