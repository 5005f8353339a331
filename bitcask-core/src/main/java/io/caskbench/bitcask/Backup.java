package io.caskbench.bitcask;

import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.Segment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Threading: the caller's thread, holding the store's merge lock, so that no merge deletes a
 * segment meanwhile.
 *
 * <p>A consistent, openable copy of the store while writes go on: immutable segments and their
 * hints are hard-linked or copied; the newest segment, which can still grow or be cut, is copied
 * up to where its records ended when the copy began.
 */
final class Backup {

    private Backup() {
    }

    /** Copies the store into {@code target}, which must not exist or be empty. */
    static void copy(StoreDirectory dir, StoreStatus status, LogWriter log, ReaderGate gate, Path target) {
        try {
            if (Files.exists(target)) {
                try (Stream<Path> entries = Files.list(target)) {
                    if (entries.findAny().isPresent()) {
                        throw new BitCaskException("backup target " + target + " is not empty");
                    }
                }
            }
            Files.createDirectories(target);
        } catch (IOException e) {
            throw new BitCaskException("cannot create backup directory " + target + ": " + e.getMessage(), e);
        }
        LogWriter.Snapshot snapshot = log.snapshot();
        List<Segment> segs = snapshot.segments();
        for (int n = 0; n < segs.size(); n++) {
            Segment seg = segs.get(n);
            Path dst = target.resolve(seg.file().getFileName());
            if (n == segs.size() - 1) {
                // The newest file can still be appended to or cut at its valid end (by this store,
                // or by the writer beside a read-only one): copy a consistent prefix, never link it.
                int token = gate.enter();
                try {
                    status.ensureOpen();
                    dir.backend().copyPrefix(seg.reader(), snapshot.newestEnd(), dst);
                } finally {
                    gate.exit(token);
                }
            } else {
                dir.backend().linkOrCopy(seg.file(), dst);
                Path hint = SegmentFiles.hintFile(dir.path(), seg.id());
                if (Files.exists(hint)) {
                    dir.backend().linkOrCopy(hint, target.resolve(hint.getFileName()));
                }
            }
        }
        dir.backend().forceDirectory(target);
    }
}
