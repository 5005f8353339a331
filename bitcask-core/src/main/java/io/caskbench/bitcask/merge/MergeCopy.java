package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentScanner;
import io.caskbench.bitcask.segment.SegmentTable;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Threading: the merging thread only, from construction to the end of {@link #copyAll}; the
 * results are read by the same thread afterwards.
 *
 * <p>A merge's copy step: scans every input, copies each record the key directory still points at
 * into outputs of the ids the seal reserved, keeps the tombstones that must stay (see
 * {@link ShadowingTombstones}), and notes every relocation for the swap. The finished outputs are
 * forced, named, opened and hinted (by the merger's {@code open}) but not registered; on failure
 * the output being written is removed here, the finished ones by the merger.
 */
final class MergeCopy {

    /** Final, safe everywhere. */
    private final StoreDirectory dir;
    /** Final, safe everywhere. */
    private final KeyDir keyDir;
    /** Size of a new output, unless a record needs more. Final. */
    private final long segmentSize;
    /** Final. */
    private final long endOfIds;
    /** Id of the oldest segment the merge leaves in place: a record older than it may shadow one there. Final. */
    private final long oldestKept;
    /** The merge's clock reading: records that expired by then are dropped. Final. */
    private final long now;
    /** Final. */
    private final MergeThrottle throttle;
    /** Final. */
    private final MergePacer pacer;
    /** True once close cancelled the merge; any thread sets what it reads. Final. */
    private final BooleanSupplier cancelled;
    /** Finishes an output and opens it under its final name (see {@code Merger.openOutput}). Final. */
    private final Function<MergeOutput, Segment> open;
    /** Finished outputs, in order; merging thread. */
    private final List<Segment> outputs = new ArrayList<>();
    /** Tombstone bytes kept in each finished output; merging thread. */
    private final List<Long> keptBytes = new ArrayList<>();
    /** Where each copied record went; merging thread. */
    private final Relocations moved = new Relocations();
    /** Tombstones that may have to stay; merging thread. */
    private final ShadowingTombstones tombstones = new ShadowingTombstones();
    /** Tombstone bytes kept in the output being written; merging thread. */
    private long kept;
    /** The id the next output takes; merging thread. */
    private long nextOut;
    /** The output being written, or null; merging thread. */
    private MergeOutput current;

    /** The copy step of the merge that {@code seal} reserved, dropping records expired at {@code now}. */
    MergeCopy(StoreDirectory dir, KeyDir keyDir, long segmentSize, LogWriter.Seal seal, MergeThrottle throttle,
              MergePacer pacer, long now, BooleanSupplier cancelled, Function<MergeOutput, Segment> open) {
        this.dir = dir;
        this.keyDir = keyDir;
        this.segmentSize = segmentSize;
        this.nextOut = seal.firstOutputId();
        this.endOfIds = seal.firstOutputId() + seal.reservedIds();
        this.oldestKept = seal.oldestKeptId();
        this.throttle = throttle;
        this.pacer = pacer;
        this.now = now;
        this.cancelled = cancelled;
        this.open = open;
    }

    /**
     * Copies the live records of every input and the tombstones that must stay, and finishes the
     * last output. Returns the corrupt bytes passed over. On failure removes the output being
     * written and throws; the finished ones, in {@link #outputs}, are the caller's to discard.
     *
     * @throws Cancelled when close cancelled the merge
     */
    long copyAll(List<Segment> inputs, LogWriter log, KeyDirWriter keys) {
        long skipped = 0;
        try {
            for (int i = 0; i < inputs.size(); i++) {
                Segment in = inputs.get(i);
                int index = i;
                // A damaged batch's member that a hint listed is live where the key directory points at it:
                // copy it like any record. Its deletes stay behind, as nothing says whether one was applied.
                skipped += new SegmentScanner(in.reader(), in.file(), in.end(), in.salt())
                        .scan(RecordFormat.FILE_HEADER_SIZE, (offset, buf, off, len) -> record(index, in, offset, buf, off, len),
                                (unit, unitEnd, headerIntact, offset, buf, off, len) -> {
                                    if ((RecordFormat.flags(buf, off) & RecordFormat.TOMBSTONE) == 0) {
                                        record(index, in, offset, buf, off, len);
                                    }
                                })
                        .skippedBytes();
            }
            tombstones.keepShadowing(inputs, log, keys, this::keepTombstone);
            finish();
        } catch (RuntimeException | Error e) {
            if (current != null) {
                current.discardTemporary();
            }
            throw e;
        }
        return skipped;
    }

    /** Finished outputs, in order. */
    List<Segment> outputs() {
        return outputs;
    }

    /** Tombstone bytes kept in each finished output: live in it, though no key points at them. */
    List<Long> keptBytes() {
        return keptBytes;
    }

    /** Where each copied record went, for the swap. */
    Relocations moved() {
        return moved;
    }

    /**
     * Copies a record of {@code in}, input {@code index}, if the key directory still points at
     * it. A tombstone or an expired record hides older records of its key, so it goes only when
     * no older segment survives the merge; otherwise the tombstone is noted for
     * {@link ShadowingTombstones} and the expired record copied like a live one.
     */
    private void record(int index, Segment in, long offset, byte[] buf, int off, int len) {
        if (cancelled.getAsBoolean()) {
            throw new Cancelled();
        }
        boolean olderSurvive = in.id() > oldestKept;
        int flags = RecordFormat.flags(buf, off);
        if ((flags & RecordFormat.TOMBSTONE) != 0) {
            if (olderSurvive) {
                tombstones.add(index, offset, len);
            }
            return;
        }
        long expiresAt = RecordFormat.expiresAt(buf, off);
        if (expiresAt != 0 && expiresAt <= now && !olderSurvive) {
            return;
        }
        int keyOff = off + RecordFormat.keyOffset(flags);
        int hash = KeyHash.hash(buf, keyOff, RecordFormat.keyLength(buf, off));
        long loc = Location.of(in.slot(), offset);
        if (!keyDir.pointsAt(hash, loc)) {
            return;
        }
        long at = append(buf, off, len);
        moved.add(hash, loc, outputs.size(), at, len);
    }

    /** Copies a tombstone that must stay; it counts as live in its output, where no key points at it. */
    private void keepTombstone(Segment in, long offset, byte[] buf, int len) {
        if (cancelled.getAsBoolean()) {
            throw new Cancelled();
        }
        append(buf, 0, len);
        kept += len;
    }

    /** Appends a record to the output being written, starting a new one when it is full; returns its offset. */
    private long append(byte[] buf, int off, int len) {
        if (current == null || !current.fits(len)) {
            finish();
            if (nextOut >= endOfIds) {
                throw new BitCaskException("merge of " + dir + " needs more output segments than reserved");
            }
            current = MergeOutput.create(dir.backend(), dir.path(), nextOut++, SegmentTable.newSalt(),
                    Math.max(segmentSize, (long) RecordFormat.FILE_HEADER_SIZE + len));
        }
        long at = current.append(buf, off, len);
        throttle.copied(len);
        pacer.copied();
        return at;
    }

    /** Finishes the output being written, if any. */
    private void finish() {
        if (current != null) {
            MergeOutput done = current;
            current = null;
            outputs.add(open.apply(done));
            keptBytes.add(kept);
            kept = 0;
        }
    }

    /** Thrown inside the copy when close cancels the merge; the merger turns it into its own error. */
    static final class Cancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super(null, null, false, false);
        }
    }
}
