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
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.SegmentTombstones;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Threading: the merging thread only, from construction to the end of {@link #copyAll}; the
 * results are read by the same thread afterwards.
 *
 * <p>A merge's copy step: finds the live records of the inputs in the key directory
 * ({@link LiveRecords}), reads those and nothing else ({@link InputReads}), copies each the key
 * directory still points at into outputs of the ids the seal reserved, keeps the tombstones that
 * must stay (see {@link ShadowingTombstones}), and notes every relocation for the swap. What it
 * reads follows the live data, not the garbage: under a sustained overwrite an input is nine
 * tenths dead, and a scan read ten times what it copied. The finished outputs are forced, named,
 * opened and hinted (by the merger's {@code open}) but not registered; on failure the output
 * being written is removed here, the finished ones by the merger.
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
    /** The reads of the inputs, and what they read; merging thread. */
    private final InputReads reads = new InputReads();
    /** Tombstone bytes kept in the output being written; merging thread. */
    private long kept;
    /** Where the tombstones kept in the output being written lie; merging thread. */
    private SegmentTombstones keptPlaces = new SegmentTombstones();
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
        try {
            LiveRecords live = LiveRecords.of(keyDir, inputs);
            boolean[] olderSurvive = new boolean[inputs.size()];
            for (int i = 0; i < inputs.size(); i++) {
                Segment in = inputs.get(i);
                boolean older = in.id() > oldestKept;
                olderSurvive[i] = older;
                reads.read(in, live.places(i), 0, live.count(i), "its key reads as absent once the merge is done",
                        (offset, buf, off, len) -> record(in, older, offset, buf, off, len));
            }
            ShadowingTombstones.keepShadowing(inputs, olderSurvive, reads, log, keys, this::keepTombstone);
            finish();
        } catch (RuntimeException | Error e) {
            if (current != null) {
                current.discardTemporary();
            }
            throw e;
        }
        return reads.skippedBytes();
    }

    /** Bytes read from the inputs: their live records and the tombstones looked at. */
    long bytesRead() {
        return reads.bytesRead();
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
     * Copies a live record of {@code in} if the key directory still points at it (a write may have
     * moved its key since the records were found). An expired record hides older records of its
     * key, so it goes only when no older segment survives the merge ({@code olderSurvive} false);
     * otherwise it is copied like a live one.
     */
    private void record(Segment in, boolean olderSurvive, long offset, byte[] buf, int off, int len) {
        if (cancelled.getAsBoolean()) {
            throw new Cancelled();
        }
        int flags = RecordFormat.flags(buf, off);
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
        long at = append(buf, 0, len);
        kept += len;
        keptPlaces.add(at, len); // a later partial merge of the output looks at it again
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
            Segment out = open.apply(done);
            out.tombstones().addAll(keptPlaces);
            outputs.add(out);
            keptBytes.add(kept);
            kept = 0;
            keptPlaces = new SegmentTombstones();
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
