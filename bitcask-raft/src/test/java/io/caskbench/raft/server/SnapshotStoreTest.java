package io.caskbench.raft.server;

import io.caskbench.bitcask.BitCaskOptions;
import org.apache.ratis.server.protocol.TermIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Snapshots: a checkpoint of the store, whose older segments are hard links (a snapshot costs little);
 * a failed one is an IOException (Raft logs it and goes on) and leaves no folder behind.
 */
class SnapshotStoreTest {

    @TempDir
    Path dir;

    private static Command put(String k, String v) {
        return Command.relative(List.of(new Command.Op(utf8(k), utf8(v), 0))).fixExpiry(0);
    }

    @Test
    void aSnapshotIsACopyOfTheStoreAndTheNewestIsFoundAgain() throws IOException {
        SnapshotStore snapshots = new SnapshotStore();
        snapshots.init(dir.resolve("sm").toFile(), dir.resolve("tmp").toFile());
        try (ReplicaStore store = ReplicaStore.open(dir.resolve("store"), BitCaskOptions.defaults())) {
            store.apply(put("a", "1"), 1, 3, 0);
            snapshots.take(store, TermIndex.valueOf(1, 4));
        }
        SnapshotStore again = new SnapshotStore();
        again.init(dir.resolve("sm").toFile(), dir.resolve("tmp").toFile());
        assertThat(again.getLatestSnapshot().getTermIndex()).isEqualTo(TermIndex.valueOf(1, 4));
        assertThat(again.getLatestSnapshot().getFiles()).isNotEmpty();
        assertThat(ReplicaStore.appliedIndexOf(again.latestDir())).isEqualTo(3);
    }

    @Test
    void aSnapshotSharesTheStoresOlderSegmentsThroughHardLinks() throws IOException {
        SnapshotStore snapshots = new SnapshotStore();
        snapshots.init(dir.resolve("sm").toFile(), dir.resolve("tmp").toFile());
        Path storeDir = dir.resolve("store");
        // A replica's store keeps segments of at least 64 MiB, so 75 MiB of values seal the first one.
        try (ReplicaStore store = ReplicaStore.open(storeDir, BitCaskOptions.builder().autoMerge(false).build())) {
            for (int i = 1; i <= 5; i++) {
                store.apply(Command.relative(List.of(new Command.Op(utf8("k" + i), new byte[15 << 20], 0))).fixExpiry(0), 1, i, 0);
            }
            snapshots.take(store, TermIndex.valueOf(1, 5));
        }
        Path first = storeDir.resolve("000000001.data");
        Path linked = snapshots.latestDir().resolve("000000001.data");
        Path probe = dir.resolve("link-probe");
        try {
            Files.createLink(probe, first);
        } catch (IOException | UnsupportedOperationException e) {
            assumeTrue(false, "no hard links in " + dir + ": " + e);
        }
        assertThat(Files.isSameFile(first, linked)).as("the oldest segment, in the store and the snapshot").isTrue();
    }

    @Test
    void aFailedCheckpointIsAnIoExceptionAndLeavesNothing() throws IOException {
        SnapshotStore snapshots = new SnapshotStore();
        snapshots.init(dir.resolve("sm").toFile(), dir.resolve("tmp").toFile());
        ReplicaStore store = ReplicaStore.open(dir.resolve("store"), BitCaskOptions.defaults());
        store.apply(put("a", "1"), 1, 1, 0);
        store.close();
        assertThatThrownBy(() -> snapshots.take(store, TermIndex.valueOf(1, 1))).isInstanceOf(IOException.class);
        assertThat(snapshots.getLatestSnapshot()).isNull();
        try (Stream<Path> left = Files.list(dir.resolve("sm"))) {
            assertThat(left).isEmpty();
        }
    }
}
