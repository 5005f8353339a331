package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskException;
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
import io.caskbench.bitcask.segment.SegmentScanner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Threading: one thread runs a check, then another reads its results once {@link #run()} has
 * returned (a pool's future orders the two); checks of different files run at once.
 *
 * <p>The check of one data file and its hint, by recovery's rules: the header as open reads it, every
 * record through {@link SegmentScanner}, and the hint against the records it lists. Each check
 * keeps its own findings, so that several can run at once.
 */
final class SegmentCheck {

    /** Final, safe everywhere. */
    private final Path dir;
    /** Final, safe everywhere. */
    private final long id;
    /** Final, safe everywhere. */
    private final boolean newest;
    /** Final, safe everywhere. */
    private final Depth depth;
    /** Final; thread-safe, as every check of a verify reports to it. */
    private final LongConsumer count;
    /** Positional reads, never a mapping; final, safe everywhere. */
    private final SegmentBackend files = new FileChannelBackend();
    /** What this check found; the checking thread, then readers after {@code run}. */
    private final List<Finding> findings = new ArrayList<>();
    /** Set at the end of {@code run}; the checking thread, then readers after it. */
    private SegmentReport report;

    /**
     * A check of segment {@code id} of the store in {@code dir}.
     *
     * @param newest true for the store's newest segment, whose torn tail open cuts
     * @param count  hears of every byte read
     */
    SegmentCheck(Path dir, long id, boolean newest, Depth depth, LongConsumer count) {
        this.dir = dir;
        this.id = id;
        this.newest = newest;
        this.depth = depth;
        this.count = count;
    }

    /** What was found about the data file and its hint, once {@link #run()} has returned. */
    SegmentReport report() {
        return report;
    }

    /** The findings in the data file and its hint, in the order they were found. */
    List<Finding> findings() {
        return findings;
    }

    /** Reads the files; afterwards {@link #report()} and {@link #findings()} say what was found. */
    void run() {
        Path file = SegmentFiles.dataFile(dir, id);
        Path hintFile = SegmentFiles.hintFile(dir, id);
        long size = -1;
        try (SegmentReader reader = new CountingReader(files.openReadOnly(file), count)) {
            size = reader.size();
            FileHeader header = FileHeader.read(reader, size);
            if (!headerFindings(file, header)) {
                report = new SegmentReport(id, file, size, header.version(), newest, -1, -1,
                        Files.exists(hintFile) ? HintState.NOT_CHECKED : HintState.MISSING, 0);
                return;
            }
            byte[] hint = files.readFile(hintFile);
            HintFormat.Validation validation = null;
            if (hint == null) {
                findings.add(new Finding(hintFile, Kind.HINT_MISSING, -1, -1, "for " + file.getFileName()));
            } else {
                count.accept(hint.length);
                validation = HintFormat.validate(hint, id, header.salt(), size);
                if (!validation.usable()) {
                    findings.add(new Finding(hintFile, Kind.HINT_UNUSABLE, -1, -1, validation.reason()));
                }
            }
            HintComparison comparison = validation != null && validation.usable() && depth == Depth.RECORDS
                    ? HintComparison.quick(hint, validation.covered()) : null;
            long records = -1;
            long validEnd = -1;
            if (depth == Depth.RECORDS) {
                long covered = validation != null && validation.usable() ? validation.covered() : -1;
                SegmentScanner.Result r = scan(reader, file, size, header.salt(), covered, comparison);
                records = r.records();
                validEnd = r.end();
            }
            HintState state = validation == null ? HintState.MISSING
                    : validation.usable() ? HintState.USABLE : HintState.UNUSABLE;
            if (comparison != null) {
                String disagreement = comparison.finish(validEnd);
                if (HintComparison.LOOK_CLOSER.equals(disagreement)) {
                    disagreement = exactComparison(file, size, header.salt(), hint, validation.covered(), validEnd);
                }
                if (disagreement != null) {
                    findings.add(new Finding(hintFile, Kind.HINT_MISMATCH, -1, -1, disagreement + " (" + file.getFileName() + ")"));
                    state = HintState.WRONG;
                } else if (validation.covered() < validEnd) {
                    findings.add(new Finding(hintFile, Kind.HINT_STALE, -1, -1, "lists the records up to offset "
                            + validation.covered() + " of " + validEnd + " in " + file.getFileName()));
                }
            }
            report = new SegmentReport(id, file, size, header.version(), newest, records, validEnd, state,
                    state == HintState.USABLE ? validation.covered() : 0);
        } catch (BitCaskException e) {
            findings.add(new Finding(file, Kind.UNREADABLE, -1, -1, e.getMessage()));
            report = new SegmentReport(id, file, Math.max(size, 0), -1, newest, -1, -1, HintState.NOT_CHECKED, 0);
        }
    }

    /** Adds the findings about a data file's header; true when its records can be read. */
    private boolean headerFindings(Path file, FileHeader h) {
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

    /**
     * Scans every record of a data file, as open does, and turns what the scan skips into findings.
     * Where a usable hint covers bad bytes at the end of the file ({@code covered}, else -1), open
     * trusts the hint there and scans only past it: those bytes are damage the hint lists records
     * in, not a tail open cuts, and the valid end is where a scan from {@code covered} ends.
     */
    private SegmentScanner.Result scan(SegmentReader reader, Path file, long size, long salt, long covered,
                                       HintComparison comparison) {
        long[] salvaged = {0};
        boolean[] underHint = {false};
        SegmentScanner.DamageListener damage = new SegmentScanner.DamageListener() {
            @Override
            public void skipped(long offset, long length, boolean batch) {
                findings.add(new Finding(file, Kind.CORRUPT_RECORDS, offset, length, (batch
                        ? "a batch whose members fail their check: open applies none of them from a scan, only those a usable hint lists"
                        : length + " bytes skipped") + salvagedMembers(salvaged)));
            }

            @Override
            public void torn(long offset, long length, boolean batch) {
                if (offset < covered) {
                    underHint[0] = true;
                    findings.add(new Finding(file, Kind.CORRUPT_RECORDS, offset, covered - offset, (batch ? "a damaged batch" : "bad bytes")
                            + " that the hint covers: open keeps what the hint lists, and reads of its records that fail throw"
                            + salvagedMembers(salvaged)));
                    return;
                }
                findings.add(tornTail(file, offset, length, batch, salvagedMembers(salvaged)));
            }
        };
        SegmentScanner.RecordVisitor visitor = comparison == null
                ? (offset, buf, off, length) -> { }
                : comparison::record;
        SegmentScanner.SalvageVisitor salvage = (unit, unitEnd, headerIntact, offset, buf, off, length) -> {
            salvaged[0]++;
            if (comparison != null) {
                comparison.salvaged(offset, buf, off, length);
            }
        };
        SegmentScanner.Result r = new SegmentScanner(reader, size, salt, damage).scan(RecordFormat.FILE_HEADER_SIZE, visitor, salvage);
        if (!underHint[0]) {
            return r;
        }
        SegmentScanner.Result tail = new SegmentScanner(reader, size, salt, new SegmentScanner.DamageListener() {
            @Override
            public void skipped(long offset, long length, boolean batch) {
                // none: the scan above found no record after these bytes
            }

            @Override
            public void torn(long offset, long length, boolean batch) {
                findings.add(tornTail(file, offset, length, batch, ""));
            }
        }).scan(covered, (offset, buf, off, length) -> { });
        return new SegmentScanner.Result(tail.end(), r.records(), r.skippedBytes(), tail.tornBytes());
    }

    /** A finding of bad bytes at the end of the file, which open cuts off the newest segment. */
    private Finding tornTail(Path file, long offset, long length, boolean batch, String salvaged) {
        return new Finding(file, Kind.TORN_TAIL, offset, length, (batch ? "a torn batch; " : "")
                + (newest ? "the newest segment: open cuts it off when it opens the store for writing"
                          : "an older segment: open ignores it and leaves it") + salvaged);
    }

    /** What to add to a finding about the members {@code count[0]} counted in its bytes; resets the count. */
    private static String salvagedMembers(long[] count) {
        long n = count[0];
        count[0] = 0;
        return n == 0 ? "" : "; " + n + (n == 1 ? " batch member in them checks on its own" : " batch members in them check on their own")
                + " ('bitcask dump --skip-corrupt' writes them out)";
    }

    /** Scans a data file again to name the first way its hint disagrees with it; only damage costs this. */
    private String exactComparison(Path file, long size, long salt, byte[] hint, long covered, long validEnd) {
        HintComparison exact = HintComparison.exact(hint, covered);
        try (SegmentReader reader = files.openReadOnly(file)) {
            new SegmentScanner(reader, size, salt, StoreVerifier.SILENT).scan(RecordFormat.FILE_HEADER_SIZE, exact::record,
                    (unit, unitEnd, headerIntact, offset, buf, off, length) -> exact.salvaged(offset, buf, off, length));
            return exact.finish(validEnd);
        }
    }
}
