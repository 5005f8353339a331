package io.caskbench.bench.files.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The three random readers replay the same offsets and so must return the same chunks. */
class RandomChunkReadTest {

    @Test
    void readersAgreeChunkByChunk() throws IOException {
        RandomChunkRead raf = open();
        RandomChunkRead channel = open();
        RandomChunkRead mapped = open();
        try {
            for (int i = 0; i < 1000; i++) {
                long expected = raf.randomAccessFile();
                assertThat(channel.channelPositional()).isEqualTo(expected);
                assertThat(mapped.mapped()).isEqualTo(expected);
            }
        } finally {
            raf.close();
            channel.close();
            mapped.close();
        }
    }

    private static RandomChunkRead open() throws IOException {
        RandomChunkRead benchmark = new RandomChunkRead();
        benchmark.chunk = 4096;
        benchmark.randomFileMb = 1;
        benchmark.open();
        return benchmark;
    }
}
