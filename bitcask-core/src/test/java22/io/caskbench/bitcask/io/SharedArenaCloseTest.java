package io.caskbench.bitcask.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the JDK does when an arena that maps a file is closed while the mapping is in use: the
 * behaviour the {@code MEMORY_SEGMENT} backend is built on, pinned down so that a JDK that changes
 * it fails here first. Compiled for JDK 22 (src/test/java22), so it runs on 22 and newer only.
 */
class SharedArenaCloseTest {

    private static final int SIZE = 16 << 20;

    @TempDir
    Path dir;

    private FileChannel file() throws IOException {
        FileChannel ch = FileChannel.open(dir.resolve("mapped"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        ch.write(ByteBuffer.allocate(1), SIZE - 1);
        return ch;
    }

    /**
     * Closing a shared arena while another thread copies out of its mapping succeeds at once; the
     * JDK's handshake stops the reader, mid-copy or before its next one, with "Already closed".
     */
    @Test
    void closeWhileAnotherThreadReadsSucceedsAndTheReaderGetsAlreadyClosed() throws Exception {
        try (FileChannel ch = file()) {
            Arena arena = Arena.ofShared();
            MemorySegment memory = ch.map(FileChannel.MapMode.READ_ONLY, 0, SIZE, arena);
            AtomicReference<Throwable> ended = new AtomicReference<>();
            CountDownLatch reading = new CountDownLatch(1);
            Thread reader = new Thread(() -> {
                byte[] buf = new byte[SIZE];
                try {
                    while (true) {
                        MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, 0, buf, 0, SIZE);
                        reading.countDown();
                    }
                } catch (Throwable t) {
                    ended.set(t);
                }
            });
            reader.start();
            assertThat(reading.await(1, TimeUnit.MINUTES)).isTrue();
            arena.close();
            reader.join(TimeUnit.MINUTES.toMillis(1));
            assertThat(arena.scope().isAlive()).isFalse();
            assertThat(ended.get()).isInstanceOf(IllegalStateException.class).hasMessage("Already closed");
            assertThatThrownBy(() -> memory.get(ValueLayout.JAVA_BYTE, 0))
                    .isInstanceOf(IllegalStateException.class).hasMessage("Already closed");
            assertThatThrownBy(memory::force).isInstanceOf(IllegalStateException.class);
        }
    }

    /**
     * The one way close fails: while an I/O call holds the memory through a buffer view (here a
     * write to a full pipe), the session is acquired, and close throws {@link IllegalStateException}
     * and leaves the arena open. The store never hands a view to an I/O call, so its closes never
     * see this.
     */
    @Test
    void closeWhileAnIoCallHoldsABufferViewThrowsAndLeavesTheArenaOpen() throws Exception {
        try (FileChannel ch = file()) {
            Arena arena = Arena.ofShared();
            MemorySegment memory = ch.map(FileChannel.MapMode.READ_ONLY, 0, SIZE, arena);
            Pipe pipe = Pipe.open();
            Thread writer = new Thread(() -> {
                try {
                    pipe.sink().write(memory.asByteBuffer());
                } catch (IOException brokenPipe) {
                    // how the write may end once the reading end is closed; it may also return short
                }
            });
            writer.start();
            // A byte out of the pipe means the write is under way; 16 MiB cannot fit in a pipe, so it
            // blocks there, holding the memory.
            ByteBuffer one = ByteBuffer.allocate(1);
            while (one.hasRemaining()) {
                pipe.source().read(one);
            }
            assertThatThrownBy(arena::close).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("acquired");
            assertThat(arena.scope().isAlive()).isTrue();
            assertThat(memory.get(ValueLayout.JAVA_BYTE, 0)).isZero();
            pipe.source().close(); // the write ends, and lets go of the memory
            writer.join(TimeUnit.MINUTES.toMillis(1));
            assertThat(writer.isAlive()).isFalse();
            pipe.sink().close();
            arena.close();
            assertThat(arena.scope().isAlive()).isFalse();
        }
    }

    /** A confined arena cannot be closed by another thread at all, which is why the backend's are shared. */
    @Test
    void aConfinedArenaRefusesACloseFromAnotherThread() throws Exception {
        try (FileChannel ch = file()) {
            Arena arena = Arena.ofConfined();
            ch.map(FileChannel.MapMode.READ_ONLY, 0, SIZE, arena);
            AtomicReference<Throwable> refused = new AtomicReference<>();
            Thread other = new Thread(() -> {
                try {
                    arena.close();
                } catch (Throwable t) {
                    refused.set(t);
                }
            });
            other.start();
            other.join();
            assertThat(refused.get()).isInstanceOf(WrongThreadException.class);
            assertThat(arena.scope().isAlive()).isTrue();
            arena.close();
        }
    }
}
