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

/** Snapshots: a failed backup is an IOException (Raft logs it and goes on) and leaves no folder behind. */
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
    void aFailedBackupIsAnIoExceptionAndLeavesNothing() throws IOException {
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
