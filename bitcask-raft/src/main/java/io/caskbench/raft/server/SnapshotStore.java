package io.caskbench.raft.server;

import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Threading: all methods synchronized; Raft calls them from its apply thread and its snapshot
 * installer.
 *
 * <p>The snapshots of one replica: each a directory {@code snapshot.<term>_<index>} in Raft's
 * state-machine folder holding a copy of the store made by {@code BitCask.checkpoint()} (older
 * segments hard-linked, so a snapshot costs little time or space). Raft sends
 * these files to a follower that needs entries the log no longer holds; it replaces the whole
 * folder with them, which is why the live store lives elsewhere.
 */
public final class SnapshotStore implements StateMachineStorage {

    private static final Pattern NAME = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");

    /** Raft's state-machine folder; set by {@link #init}. */
    private File smDir;
    /** Raft's folder for partial downloads; set by {@link #init}. */
    private File tmpDir;
    /** The newest complete snapshot, or null; cached, rescanned on {@link #reload()}. */
    private FileListSnapshotInfo latest;

    @Override
    public void init(RaftStorage raftStorage) {
        init(raftStorage.getStorageDir().getStateMachineDir(), raftStorage.getStorageDir().getTmpDir());
    }

    /** Uses {@code stateMachineDir} for snapshots and {@code tmp} for Raft's partial downloads. */
    synchronized void init(File stateMachineDir, File tmp) {
        smDir = stateMachineDir;
        tmpDir = tmp;
        reload();
    }

    /** Rescans the folder, after Raft installed a snapshot into it. */
    public synchronized void reload() {
        latest = null;
        Path newest = newestDir();
        if (newest != null) {
            latest = describe(newest, termIndexOf(newest));
        }
    }

    @Override
    public synchronized SnapshotInfo getLatestSnapshot() {
        return latest;
    }

    /** The folder of the newest snapshot, or null when there is none. */
    public synchronized Path latestDir() {
        return newestDir();
    }

    /**
     * Makes a snapshot of {@code replica} at {@code applied}: a checkpoint into a temporary folder
     * renamed into place once complete, so a crash never leaves a partial snapshot under a
     * snapshot's name.
     *
     * @throws IOException when the checkpoint fails; nothing of it is left, and the previous snapshot stays the newest
     */
    public synchronized void take(ReplicaStore replica, TermIndex applied) throws IOException {
        Path target = smDir.toPath().resolve("snapshot." + applied.getTerm() + "_" + applied.getIndex());
        if (Files.exists(target)) {
            return;
        }
        Path partial = smDir.toPath().resolve("partial." + applied.getIndex());
        try {
            ReplicaStore.deleteTree(partial);
            Files.createDirectories(smDir.toPath());
            replica.checkpoint(partial);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            try {
                ReplicaStore.deleteTree(partial);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw new IOException("cannot write snapshot " + target + ": " + e.getMessage(), e);
        }
        latest = describe(target, applied);
    }

    @Override
    public void format() {
        // Nothing to prepare: the folder is created with the first snapshot.
    }

    @Override
    public synchronized void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
        int keep = Math.max(1, policy.getNumSnapshotsRetained());
        try {
            List<Path> all = snapshotDirs();
            for (int i = 0; i < all.size() - keep; i++) {
                ReplicaStore.deleteTree(all.get(i));
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public File getSnapshotDir() {
        return smDir;
    }

    @Override
    public File getTmpDir() {
        return tmpDir;
    }

    private Path newestDir() {
        List<Path> all = snapshotDirs();
        return all.isEmpty() ? null : all.get(all.size() - 1);
    }

    /** Complete snapshot folders, oldest first. */
    private List<Path> snapshotDirs() {
        if (smDir == null || !smDir.isDirectory()) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(smDir.toPath())) {
            return s.filter(p -> Files.isDirectory(p) && NAME.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparingLong(p -> termIndexOf(p).getIndex()))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + smDir, e);
        }
    }

    private static TermIndex termIndexOf(Path dir) {
        Matcher m = NAME.matcher(dir.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a snapshot folder: " + dir);
        }
        return TermIndex.valueOf(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
    }

    private static FileListSnapshotInfo describe(Path dir, TermIndex ti) {
        List<FileInfo> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                if (!p.getFileName().toString().endsWith(".md5")) {
                    files.add(new FileInfo(p.toAbsolutePath(), null));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        return new FileListSnapshotInfo(files, ti);
    }
}
