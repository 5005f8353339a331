package io.caskbench.bench.files.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.files.fixture.Checksum;
import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every whole-file reader must see every byte: same checksum as a plain read of the file. */
class WholeFileReadersTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 1024, 4093, 65536, 65537, 300_001})
    void everyReaderSumsTheWholeFile(int size) throws IOException {
        Path file = Workspace.writeRandomFile(dir.resolve("f.bin"), size, size);
        byte[] bytes = Files.readAllBytes(file);
        long expected = Checksum.update(0, bytes, 0, bytes.length);

        assertThat(WholeFileReaders.bufferedStream(file, new byte[WholeFileReaders.BUFFERED_REQUEST]))
                .isEqualTo(expected);
        assertThat(WholeFileReaders.plainStream(file, new byte[WholeFileReaders.CHUNK])).isEqualTo(expected);
        assertThat(WholeFileReaders.readAllBytes(file)).isEqualTo(expected);
        assertThat(WholeFileReaders.channel(file, ByteBuffer.allocate(WholeFileReaders.CHUNK))).isEqualTo(expected);
        assertThat(WholeFileReaders.channel(file, ByteBuffer.allocateDirect(WholeFileReaders.CHUNK)))
                .isEqualTo(expected);
        assertThat(WholeFileReaders.mapped(file)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 1024, 8192 * 1024})
    void channelSumDoesNotDependOnTheChunkSize(int chunk) throws IOException {
        Path file = Workspace.writeRandomFile(dir.resolve("g.bin"), 3 * 65536 + 5, 2);
        assertThat(WholeFileReaders.channel(file, ByteBuffer.allocateDirect(chunk)))
                .isEqualTo(WholeFileReaders.readAllBytes(file));
    }
}
