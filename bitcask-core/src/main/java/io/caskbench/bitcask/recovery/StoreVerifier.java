package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.ProgressListener;
import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Depth;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.HintState;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.VerifyReport.SegmentReport;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a store directory without opening the store, by recovery's own rules: the header checks
 * of open, the same {@link SegmentScanner} (told to report what it skips instead of logging it),
 * and {@link HintFormat#validate}. Beyond what open checks, it compares every entry of a usable
 * hint with the record it lists, since open trusts such a hint without reading the data.
 *
 * <p>Files are read through positional reads, never mapped, so a writer that truncates a file
 * meanwhile cannot crash the verifier.
 */
public final class StoreVerifier {

    private final Path dir;
    private final Depth depth;
    private final ProgressListener progress;
    private final SegmentBackend files = new FileChannelBackend();
    private final List<SegmentReport> segments = new ArrayList<>();
    private final List<Finding> findings = new ArrayList<>();
    private long bytesRead;

    private StoreVerifier(Path dir, Depth depth, ProgressListener progress) {
        this.dir = dir;
        this.depth = depth;
        this.progress = progress;
    }

    /** True when {@code dir} is a directory that holds a data file, a hint file or a lock file. */
    public static boolean isStore(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        if (Files.exists(dir.resolve(SegmentFiles.LOCK_FILE))) {
            return true;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir,
                "*{" + SegmentFiles.DATA_SUFFIX + "," + SegmentFiles.HINT_SUFFIX + "}")) {
            return s.iterator().hasNext();
        } catch (IOException e) {
            throw new BitCaskException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks the store in {@code dir}.
     *
     * @param liveWriter true when a writer holds the directory; only recorded in the report
     * @throws BitCaskException when {@code dir} holds no store or cannot be listed
     */
    public static VerifyReport verify(Path dir, Depth depth, ProgressListener progress, boolean liveWriter) {
        Path absolute = dir.toAbsolutePath().normalize();
        if (!isStore(absolute)) {
            throw new BitCaskException(absolute + (Files.isDirectory(absolute)
                    ? " is not a BitCask store: it holds no data, hint or LOCK file" : " is not a directory"));
        }
        StoreVerifier v = new StoreVerifier(absolute, depth, progress);
        v.run();
        return new VerifyReport(absolute, depth, RecordFormat.VERSION, liveWriter, List.copyOf(v.segments),
                List.copyOf(v.findings), v.bytesRead);
    }

    private void run() {
        List<Long> ids = SegmentFiles.dataIds(dir);
        progress.phase("verify", plannedBytes(ids));
        Set<Path> hints = new HashSet<>();
        for (int n = 0; n < ids.size(); n++) {
            long id = ids.get(n);
            hints.add(SegmentFiles.hintFile(dir, id));
            checkSegment(id, n == ids.size() - 1);
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*" + SegmentFiles.HINT_SUFFIX)) {
            for (Path hint : s) {
                if (!hints.contains(hint) && Files.isRegularFile(hint)) {
                    findings.add(new Finding(hint, Kind.ORPHAN_HINT, -1, -1, "no data file of this name"));
                }
            }
        } catch (IOException e) {
            throw new BitCaskException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        for (Path tmp : SegmentFiles.tempFiles(dir)) {
            findings.add(new Finding(tmp, Kind.DEBRIS, -1, -1, "left by an interrupted merge or file write"));
        }
        findings.sort((a, b) -> a.file().getFileName().toString().compareTo(b.file().getFileName().toString()));
    }

    /** Bytes this run will read: hint files always, data files only when records are read. */
    private long plannedBytes(List<Long> ids) {
        long total = 0;
        for (long id : ids) {
            total += sizeOrZero(SegmentFiles.hintFile(dir, id));
            total += depth == Depth.RECORDS ? sizeOrZero(SegmentFiles.dataFile(dir, id)) : RecordFormat.FILE_HEADER_SIZE;
        }
        return total;
    }

    private static long sizeOrZero(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private void checkSegment(long id, boolean newest) {
        Path file = SegmentFiles.dataFile(dir, id);
        Path hintFile = SegmentFiles.hintFile(dir, id);
        long size = -1;
        try (SegmentReader reader = new CountingReader(files.openReadOnly(file), this::count)) {
            size = reader.size();
            FileHeader header = FileHeader.read(reader, size);
            if (!headerFindings(file, id, header)) {
                segments.add(new SegmentReport(id, file, size, header.version(), newest, -1, -1,
                        Files.exists(hintFile) ? HintState.NOT_CHECKED : HintState.MISSING, 0));
                return;
            }
            byte[] hint = files.readFile(hintFile);
            HintFormat.Validation validation = null;
            if (hint == null) {
                findings.add(new Finding(hintFile, Kind.HINT_MISSING, -1, -1, "for " + file.getFileName()));
            } else {
                count(hint.length);
                validation = HintFormat.validate(hint, id, header.salt(), size);
                if (!validation.usable()) {
                    findings.add(new Finding(hintFile, Kind.HINT_UNUSABLE, -1, -1, validation.reason()));
                }
            }
            HintComparison comparison = validation != null && validation.usable() && depth == Depth.RECORDS
                    ? new HintComparison(hint, validation.covered()) : null;
            long records = -1;
            long validEnd = -1;
            if (depth == Depth.RECORDS) {
                SegmentScanner.Result r = scan(reader, file, size, header.salt(), newest, comparison);
                records = r.records();
                validEnd = r.end();
            }
            HintState state = validation == null ? HintState.MISSING
                    : validation.usable() ? HintState.USABLE : HintState.UNUSABLE;
            if (comparison != null) {
                String disagreement = comparison.finish(validEnd);
                if (disagreement != null) {
                    findings.add(new Finding(hintFile, Kind.HINT_MISMATCH, -1, -1, disagreement + " (" + file.getFileName() + ")"));
                    state = HintState.WRONG;
                } else if (validation.covered() < validEnd) {
                    findings.add(new Finding(hintFile, Kind.HINT_STALE, -1, -1, "lists the records up to offset "
                            + validation.covered() + " of " + validEnd + " in " + file.getFileName()));
                }
            }
            segments.add(new SegmentReport(id, file, size, header.version(), newest, records, validEnd, state,
                    state == HintState.USABLE ? validation.covered() : 0));
        } catch (BitCaskException e) {
            findings.add(new Finding(file, Kind.UNREADABLE, -1, -1, e.getMessage()));
            segments.add(new SegmentReport(id, file, Math.max(size, 0), -1, newest, -1, -1, HintState.NOT_CHECKED, 0));
        }
    }

    /** Adds the findings about a data file's header; true when its records can be read. */
    private boolean headerFindings(Path file, long id, FileHeader h) {
        if (h.intactBlock() < 0) {
            if (h.versionOne()) {
                findings.add(new Finding(file, Kind.WRONG_VERSION, 0, RecordFormat.FILE_HEADER_SIZE,
                        "format version 1; this release reads version " + RecordFormat.VERSION));
            } else if (h.size() <= RecordFormat.FILE_HEADER_SIZE) {
                findings.add(new Finding(file, Kind.HEADER_CUT_SHORT, 0, h.size(), h.size() + " bytes"));
            } else {
                findings.add(new Finding(file, Kind.HEADER_UNREADABLE, 0, RecordFormat.FILE_HEADER_SIZE,
                        "both copies fail their check; " + (h.size() - RecordFormat.FILE_HEADER_SIZE) + " bytes cannot be checked"));
            }
            return false;
        }
        if (h.version() != RecordFormat.VERSION) {
            findings.add(new Finding(file, Kind.WRONG_VERSION, h.intactBlock(), RecordFormat.HEADER_BLOCK_SIZE,
                    "format version " + h.version() + "; this release reads version " + RecordFormat.VERSION));
            return false;
        }
        if (!h.otherCopyIntact()) {
            long at = RecordFormat.HEADER_BLOCK_SIZE - h.intactBlock();
            findings.add(new Finding(file, Kind.HEADER_COPY_DAMAGED, at, RecordFormat.HEADER_BLOCK_SIZE,
                    "copy at offset " + at + " fails its check"));
        } else if (!h.copiesEqual()) {
            findings.add(new Finding(file, Kind.HEADER_MISMATCH, 0, RecordFormat.FILE_HEADER_SIZE,
                    "the two copies differ; open reads the first"));
        }
        if (h.segmentId() != id) {
            findings.add(new Finding(file, Kind.HEADER_MISMATCH, h.intactBlock(), RecordFormat.HEADER_BLOCK_SIZE,
                    "the header names segment " + h.segmentId()));
        }
        if (h.salt() == 0) {
            findings.add(new Finding(file, Kind.HEADER_UNREADABLE, h.intactBlock(), RecordFormat.HEADER_BLOCK_SIZE,
                    "the header has no salt, so the file was not written by this store"));
            return false;
        }
        return true;
    }

    /** Scans every record of a data file, as open does, and turns what the scan skips into findings. */
    private SegmentScanner.Result scan(SegmentReader reader, Path file, long size, long salt, boolean newest,
                                       HintComparison comparison) {
        SegmentScanner.DamageListener damage = new SegmentScanner.DamageListener() {
            @Override
            public void skipped(long offset, long length, boolean batch) {
                findings.add(new Finding(file, Kind.CORRUPT_RECORDS, offset, length, batch
                        ? "a batch whose members fail their check; none of them is applied"
                        : length + " bytes skipped"));
            }

            @Override
            public void torn(long offset, long length, boolean batch) {
                findings.add(new Finding(file, Kind.TORN_TAIL, offset, length, (batch ? "a torn batch; " : "")
                        + (newest ? "the newest segment: open cuts it off when it opens the store for writing"
                                  : "an older segment: open ignores it and leaves it")));
            }
        };
        SegmentScanner.RecordVisitor visitor = comparison == null
                ? (offset, buf, off, length) -> { }
                : comparison::record;
        return new SegmentScanner(reader, size, salt, damage).scan(RecordFormat.FILE_HEADER_SIZE, visitor);
    }

    private void count(long bytes) {
        bytesRead += bytes;
        progress.advance(bytes);
    }
}
