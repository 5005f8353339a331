package io.caskbench.bench.files.read;

import io.caskbench.bitcask.io.Unmapper;
import io.caskbench.bench.files.fixture.Checksum;
import io.caskbench.bench.files.fixture.Mappings;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The ways of reading a whole file that the whole-file benchmarks compare. Each opens the file,
 * reads every byte, closes it and returns the {@link Checksum} of the content, which is identical
 * across readers for the same file (the tests check this).
 *
 * <p>Buffers are passed in so that a benchmark reuses them across files, as a careful program
 * would; only {@link #readAllBytes} allocates, because that is what it does.
 */
public final class WholeFileReaders {

    /** Bytes a caller asks {@link BufferedInputStream} for at a time: half its default 8 KiB buffer. */
    public static final int BUFFERED_REQUEST = 4096;

    /** Chunk used by the unbuffered stream and by the channel readers. */
    public static final int CHUNK = 64 * 1024;

    private WholeFileReaders() {
    }

    /**
     * {@code BufferedInputStream} (default 8 KiB buffer) over {@code FileInputStream}, read in
     * requests of {@link #BUFFERED_REQUEST} bytes, so the stream's buffer is really used.
     *
     * @param file file to read
     * @param request reusable array of at least {@link #BUFFERED_REQUEST} bytes
     * @return checksum of the content
     * @throws IOException if reading fails
     */
    public static long bufferedStream(Path file, byte[] request) throws IOException {
        try (InputStream in = new BufferedInputStream(new FileInputStream(file.toFile()))) {
            return drain(in, request, BUFFERED_REQUEST);
        }
    }

    /**
     * Plain {@code FileInputStream} into a reused array of {@link #CHUNK} bytes.
     *
     * @param file file to read
     * @param chunk reusable array of at least {@link #CHUNK} bytes
     * @return checksum of the content
     * @throws IOException if reading fails
     */
    public static long plainStream(Path file, byte[] chunk) throws IOException {
        try (InputStream in = new FileInputStream(file.toFile())) {
            return drain(in, chunk, CHUNK);
        }
    }

    private static long drain(InputStream in, byte[] buffer, int request) throws IOException {
        long sum = 0;
        int n;
        // readNBytes fills the request unless at end of file, keeping chunks 8-byte aligned.
        while ((n = in.readNBytes(buffer, 0, request)) > 0) {
            sum = Checksum.update(sum, buffer, 0, n);
        }
        return sum;
    }

    /**
     * {@link Files#readAllBytes}: one new array the size of the file.
     *
     * @param file file to read
     * @return checksum of the content
     * @throws IOException if reading fails
     */
    public static long readAllBytes(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        return Checksum.update(0, all, 0, all.length);
    }

    /**
     * {@link FileChannel#read(ByteBuffer)} into a reused buffer. With a heap buffer the JDK reads
     * into a temporary direct buffer and copies; with a direct buffer the kernel fills it directly.
     *
     * @param file file to read
     * @param buffer reusable heap or direct buffer; its capacity is the chunk size (the
     *     whole-file benchmarks use {@link #CHUNK}), a multiple of 8
     * @return checksum of the content
     * @throws IOException if reading fails
     */
    public static long channel(Path file, ByteBuffer buffer) throws IOException {
        long sum = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            boolean eof = false;
            while (!eof) {
                buffer.clear();
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer) < 0) {
                        eof = true;
                        break;
                    }
                }
                sum = Checksum.update(sum, buffer, 0, buffer.position());
            }
        }
        return sum;
    }

    /**
     * {@link FileChannel#map} of the whole file, read in place, then unmapped at once so that
     * mappings never pile up.
     *
     * @param file file to read (under 2 GiB)
     * @return checksum of the content
     */
    public static long mapped(Path file) {
        MappedByteBuffer map = Mappings.mapReadOnly(file);
        try {
            return Checksum.update(0, map, 0, map.capacity());
        } finally {
            Unmapper.unmap(map);
        }
    }
}
