package io.caskbench.bitcask;

import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.HintReader;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentScanner;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Threading: static helpers; each call runs on the backing-up thread and reads only the copy it is given.
 *
 * <p>The check a backup makes of each file it has just copied, read back from the copy, so that what
 * it vouches for is what the backup holds. A data file's copy must be as long as what was copied and
 * have an intact header copy with its segment's salt; anything else means the copy itself went wrong,
 * and fails the backup. Then both header copies must agree, and every byte after the header must
 * belong to a record whose CRC matches for that salt and the record's own offset (a zero-filled tail
 * is unused space); what does not is damage the copy carries from the store, and becomes a finding.
 * A hint file must pass the checks open makes of it (CRC, header, entries within the copied data
 * file).
 */
final class BackupCheck {

    private BackupCheck() {
    }

    /**
     * Checks the copy {@code copy} of the first {@code length} bytes of {@code seg}'s data file, adding
     * what fails its check to {@code findings} under the store's file name.
     *
     * @return the records that checked out
     * @throws BitCaskException when the copy is not a copy of those bytes
     */
    static long data(SegmentBackend backend, Segment seg, Path copy, long length, List<Finding> findings) {
        Path file = seg.file();
        try (SegmentReader r = backend.openReadOnly(copy)) {
            long size = r.size();
            byte[] h = new byte[RecordFormat.FILE_HEADER_SIZE];
            int at = -1;
            if (size == length && length >= h.length) {
                r.read(0, h, 0, h.length);
                at = RecordFormat.intactHeaderBlock(h);
            }
            if (at < 0 || RecordFormat.headerSalt(h, at) != seg.salt()) {
                throw new BitCaskException("backup of " + file.getParent() + " failed: the copy " + copy + " of "
                        + length + " bytes of " + file.getFileName() + " is " + size + " bytes long, and its header"
                        + (at < 0 ? " fails its check" : " has another salt") + "; the copy went wrong");
            }
            int block = RecordFormat.HEADER_BLOCK_SIZE;
            if (at != 0 || RecordFormat.intactHeaderBlock(Arrays.copyOfRange(h, block, block + h.length)) != 0) {
                findings.add(new Finding(file, Kind.HEADER_COPY_DAMAGED, block - at, block,
                        "copy at offset " + (block - at) + " fails its check"));
            } else if (!Arrays.equals(h, 0, block, h, block, 2 * block)) {
                findings.add(new Finding(file, Kind.HEADER_MISMATCH, 0, h.length, "the two copies differ; open reads the first"));
            }
            SegmentScanner.Result scanned = new SegmentScanner(r, length, seg.salt(), new SegmentScanner.DamageListener() {
                @Override
                public void skipped(long offset, long bytes, boolean batch) {
                    findings.add(new Finding(file, Kind.CORRUPT_RECORDS, offset, bytes, batch
                            ? "a batch whose members fail their check" : bytes + " bytes fail their check"));
                }

                @Override
                public void torn(long offset, long bytes, boolean batch) {
                    findings.add(new Finding(file, Kind.TORN_TAIL, offset, bytes,
                            (batch ? "a torn batch; " : "") + bytes + " bytes at the end fail their check"));
                }
            }).scan(RecordFormat.FILE_HEADER_SIZE, (offset, buf, off, len) -> {
                // the scan checks each record; the backup needs nothing more of it
            });
            return scanned.records();
        }
    }

    /**
     * Checks the copy {@code copy} of {@code seg}'s hint file {@code hint} against the copy of its
     * data file, of {@code dataLength} bytes.
     *
     * @return null when the copy passes, else the finding, under the store's hint file
     */
    static Finding hint(SegmentBackend backend, Segment seg, Path hint, Path copy, long dataLength) {
        try (SegmentReader r = backend.openReadOnly(copy)) {
            HintFormat.Validation v = HintFormat.validate(new HintReader(r::read, r.size(), true), seg.id(), seg.salt(), dataLength);
            return v.usable() ? null : new Finding(hint, Kind.HINT_UNUSABLE, -1, -1, v.reason());
        }
    }
}
