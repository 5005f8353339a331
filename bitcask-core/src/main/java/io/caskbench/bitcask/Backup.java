package io.caskbench.bitcask;

import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.Segment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Threading: the caller's thread, holding the store's merge lock, so that no merge deletes a
 * segment meanwhile (and no close unmaps one).
 *
 * <p>A consistent, openable copy of the store while writes go on, in one of two modes. A backup
 * copies every file, forced, and checks each copy as it is written ({@link BackupCheck}): it shares
 * no byte with the store, and every byte that fails its check is reported, never passed on as good.
 * A checkpoint hard-links the immutable segments and their hints, or copies them where the file
 * system refuses a link: it costs almost nothing, but a link is the same file, so it guards against
 * a deleted file and not against a damaged byte or a failed disk. Either way the newest segment,
 * which can still grow or be cut, is copied up to where its records ended when the copy began.
 */
final class Backup {

    private static final Logger LOG = LoggerFactory.getLogger(Backup.class);

    /** How the immutable segments reach the target. */
    enum Mode {
        /** Copied, forced and checked: a backup. */
        COPY,
        /** Hard-linked where the file system allows it: a checkpoint. */
        LINK
    }

    private Backup() {
    }

    /**
     * Writes the store into {@code target}, which must not exist or be empty.
     *
     * @return what was copied and what the checks found; a checkpoint checks nothing and finds nothing
     */
    static BackupReport write(StoreDirectory dir, StoreStatus status, LogWriter log, ReaderGate gate, Path target, Mode mode) {
        createEmpty(target);
        SegmentBackend backend = dir.backend();
        LogWriter.Snapshot snapshot = log.snapshot();
        List<Segment> segs = snapshot.segments();
        List<Finding> findings = new ArrayList<>();
        int files = 0;
        long bytes = 0;
        long records = 0;
        for (int n = 0; n < segs.size(); n++) {
            Segment seg = segs.get(n);
            Path dst = target.resolve(seg.file().getFileName());
            Path hint = SegmentFiles.hintFile(dir.path(), seg.id());
            Path hintDst = target.resolve(hint.getFileName());
            boolean newest = n == segs.size() - 1;
            if (mode == Mode.LINK && !newest) {
                backend.linkOrCopy(seg.file(), dst);
                if (Files.exists(hint)) {
                    backend.linkOrCopy(hint, hintDst);
                }
                continue;
            }
            // The newest file can still be appended to or cut at its valid end (by this store, or by
            // the writer beside a read-only one): copy a consistent prefix, never link it, and no
            // hint (the copy's first close writes one). Of an older one, copy the whole file: a bad
            // tail is damage, as verify reports it.
            long length = newest ? snapshot.newestEnd() : seg.reader().size();
            copy(status, gate, backend, seg.reader(), length, dst);
            files++;
            bytes += length;
            if (mode == Mode.LINK) {
                continue;
            }
            int found = findings.size();
            records += BackupCheck.data(backend, seg, dst, length, findings);
            if (!newest && Files.exists(hint)) {
                long kept = copyHint(backend, seg, hint, hintDst, length, findings);
                files += kept >= 0 ? 1 : 0;
                bytes += Math.max(0, kept);
            }
            warn(findings.subList(found, findings.size()));
        }
        backend.forceDirectory(target);
        return new BackupReport(target, files, bytes, records, List.copyOf(findings));
    }

    private static void createEmpty(Path target) {
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
    }

    /** Copies and forces the first {@code length} bytes of a segment, read inside the reader gate of an open store. */
    private static void copy(StoreStatus status, ReaderGate gate, SegmentBackend backend, SegmentReader src, long length, Path dst) {
        int token = gate.enter();
        try {
            status.ensureOpen();
            backend.copyPrefix(src, length, dst);
        } finally {
            gate.exit(token);
        }
    }

    /**
     * Copies a hint file and checks the copy; one that fails its checks is left out, as open ignores
     * it and scans the data file instead: a hint is derived from its data file, so leaving it out
     * loses nothing.
     *
     * @return the bytes copied, or -1 when the copy was left out
     */
    private static long copyHint(SegmentBackend backend, Segment seg, Path hint, Path dst, long dataLength, List<Finding> findings) {
        long size;
        try (SegmentReader src = backend.openReadOnly(hint)) {
            size = src.size();
            backend.copyPrefix(src, size, dst);
        }
        Finding unusable = BackupCheck.hint(backend, seg, hint, dst, dataLength);
        if (unusable != null) {
            backend.delete(dst);
            findings.add(unusable);
            return -1;
        }
        return size;
    }

    /** One WARN per finding: what a caller that drops the report would otherwise never hear of. */
    private static void warn(List<Finding> found) {
        for (Finding f : found) {
            if (f.kind() == VerifyReport.Kind.HINT_UNUSABLE) {
                LOG.warn("{}: the hint file fails its checks ({}); the backup leaves it out, and its open scans the data file",
                        f.file(), f.detail());
            } else {
                LOG.warn("{}: {} at offset {} ({} bytes): {}; the backup holds them as the store does, and its open"
                        + " skips them as the store's does", f.file(), f.kind(), f.offset(), f.length(), f.detail());
            }
        }
    }
}
