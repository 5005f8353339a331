package io.caskbench.bitcask;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.caskbench.bitcask.merge.MergeHeadroom;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.LogCapture;
import io.caskbench.bitcask.testing.Tmpfs;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A full disk: on a real 4 MiB tmpfs the test mounts, a store fills the disk, then opens read-write on
 * it, serves every read, refuses every write and every merge with a clear exception, and takes writes
 * again by itself once space is freed. Through the fault-injecting backend, a merge that finds too
 * little room refuses before it changes anything, and one that runs out of room midway leaves the
 * store as it was. A file system that reports no blocks at all (free space unknown, not zero) does not
 * stop a merge.
 */
class FullDiskTest {

    private static final int SEGMENT = 256 << 10;
    /** Most puts a fill makes: 4 MiB of 1000-byte values is far fewer. */
    private static final int MAX_FILL = 10_000;

    @TempDir
    Path tmp;

    private static byte[] value(String what) {
        return Bytes.padded(what, 1000);
    }

    /** No automatic merge: the merges these tests refuse, and then run, are their own. */
    private static BitCaskOptions options(Backend backend) {
        return BitCaskOptions.builder().backend(backend).segmentSize(SEGMENT).autoMerge(false).build();
    }

    /** Opens a store through {@code faulty} with {@link #withDeadBytes(BitCask)} done. */
    private static BitCask withDeadBytes(Path dir, Backend backend, FaultyBackend faulty) {
        BitCask db = BitCask.open(dir, options(backend).toBuilder().segmentBackend(faulty).build());
        withDeadBytes(db);
        return db;
    }

    /** Puts 200 keys and overwrites half of them, so there is something to merge. */
    private static void withDeadBytes(BitCask db) {
        for (int i = 0; i < 200; i++) {
            db.put("k" + i, value("first" + i));
        }
        for (int i = 0; i < 200; i += 2) {
            db.put("k" + i, value("second" + i));
        }
    }

    private static void checkDeadBytesKeys(BitCask db) {
        for (int i = 0; i < 200; i++) {
            assertThat(db.get("k" + i)).isEqualTo(value((i % 2 == 0 ? "second" : "first") + i));
        }
    }

    /** Puts until the disk refuses one; returns how many went in. */
    private static int fill(BitCask db) {
        for (int i = 0; i < MAX_FILL; i++) {
            try {
                db.put("f" + i, value("fill" + i));
            } catch (BitCaskException full) {
                assertThat(full).hasMessageContaining("No space left on device");
                return i;
            }
        }
        throw new AssertionError("the disk never filled");
    }

    @EveryBackend
    void aStoreOnAFullDiskOpensServesReadsRefusesWritesAndResumesWhenSpaceReturns(Backend backend) throws Exception {
        try (Tmpfs fs = Tmpfs.mount(tmp.resolve("fs"), "4m")) {
            Path ballast = fs.path().resolve("ballast");
            Files.write(ballast, new byte[1 << 20]);
            Path dir = fs.path().resolve("db");
            int filled;
            try (BitCask db = BitCask.open(dir, options(backend))) {
                withDeadBytes(db);
                filled = fill(db);
                assertThat(filled).isPositive();
                assertThatThrownBy(db::merge).isInstanceOf(BitCaskException.class).hasMessageContaining("refused");
            }
            try (BitCask db = BitCask.open(dir, options(backend))) {
                checkDeadBytesKeys(db);
                for (int i = 0; i < filled; i++) {
                    assertThat(db.get("f" + i)).isEqualTo(value("fill" + i));
                }
                assertThatThrownBy(() -> db.put("f" + filled, value("fill" + filled)))
                        .isInstanceOf(BitCaskException.class).hasMessageContaining("No space left on device");
                assertThatThrownBy(db::merge).isInstanceOf(BitCaskException.class).hasMessageContaining("refused");
                checkDeadBytesKeys(db);

                Files.delete(ballast);
                db.put("f" + filled, value("fill" + filled)); // by itself: no reopen, no call to make first
                MergeResult r = db.merge();
                assertThat(r.inputsSelected()).isPositive();
                checkDeadBytesKeys(db);
            }
            try (BitCask db = BitCask.open(dir, options(backend))) {
                checkDeadBytesKeys(db);
                for (int i = 0; i <= filled; i++) {
                    assertThat(db.get("f" + i)).isEqualTo(value("fill" + i));
                }
            }
        }
    }

    @EveryBackend
    void aMergeThatTheDiskCannotHoldIsRefusedBeforeItChangesAnything(Backend backend) throws Exception {
        Path dir = tmp.resolve("db");
        FaultyBackend faulty = new FaultyBackend(backend.create());
        try (BitCask db = withDeadBytes(dir, backend, faulty)) {
            List<String> before = files(dir);
            faulty.totalSpace.set(1L << 30); // a file system that reports its size: 100 kB free is a full disk
            faulty.usableSpace.set(100_000);
            assertThatThrownBy(db::merge).isInstanceOf(BitCaskException.class)
                    .hasMessageContaining("refused").hasMessageContaining("100000");
            assertThat(files(dir)).isEqualTo(before);
            checkDeadBytesKeys(db);
            faulty.usableSpace.set(-1);
            faulty.totalSpace.set(-1);
            assertThat(db.merge().inputsSelected()).isPositive();
            checkDeadBytesKeys(db);
        }
    }

    @EveryBackend
    void aFileSystemThatReportsNoBlocksIsNotAFullDiskAndIsToldOfOnce(Backend backend) throws Exception {
        Path dir = tmp.resolve("db");
        FaultyBackend faulty = new FaultyBackend(backend.create());
        faulty.totalSpace.set(0); // a FUSE mount without statfs (LazyFS): no blocks, so nothing free either
        faulty.usableSpace.set(0);
        List<ILoggingEvent> warnings;
        try (LogCapture log = LogCapture.warnings(MergeHeadroom.class); BitCask db = withDeadBytes(dir, backend, faulty)) {
            assertThat(db.merge().inputsSelected()).isPositive();
            checkDeadBytesKeys(db);
            withDeadBytes(db);
            assertThat(db.merge().inputsSelected()).isPositive();
            checkDeadBytesKeys(db);
            warnings = log.events();
        }
        assertThat(warnings).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.WARN);
            assertThat(e.getFormattedMessage()).contains(dir.toString()).contains("reports no blocks");
        });
        try (BitCask db = BitCask.open(dir, options(backend))) {
            checkDeadBytesKeys(db);
        }
    }

    @EveryBackend
    void aMergeThatRunsOutOfSpaceMidwayLeavesTheStoreAsItWas(Backend backend) throws Exception {
        Path dir = tmp.resolve("db");
        FaultyBackend faulty = new FaultyBackend(backend.create());
        try (BitCask db = withDeadBytes(dir, backend, faulty)) {
            faulty.writeBudget.set(20_000); // the space check passes, the copy runs out
            assertThatThrownBy(() -> db.merge(MergeScope.ALL)).isInstanceOf(BitCaskException.class);
            assertThat(files(dir)).noneMatch(n -> n.endsWith(".tmp"));
            checkDeadBytesKeys(db);
            faulty.writeBudget.set(-1);
            db.put("after", value("after"));
            assertThat(db.merge(MergeScope.ALL).inputsSelected()).isPositive();
            checkDeadBytesKeys(db);
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            checkDeadBytesKeys(db);
            assertThat(db.get("after")).isEqualTo(value("after"));
        }
    }

    private static List<String> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
