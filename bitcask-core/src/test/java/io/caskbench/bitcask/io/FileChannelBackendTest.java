package io.caskbench.bitcask.io;

class FileChannelBackendTest extends SegmentBackendContract {
    @Override
    SegmentBackend backend() {
        return new FileChannelBackend();
    }
}
