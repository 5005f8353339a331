package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.log.GroupCommit;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.HintWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentScanner;
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.UnforcedSegments;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Threading: one merging thread at a time, which holds the store's merge lock; {@code cancelled}
 * is set by close from any thread.
 *
 * <p>Compaction in four steps: seal the active segment and force every input; copy the live
 * records into outputs; swap the key directory over to the copies; retire the inputs. A failure
 * before the swap leaves the store as it was; one after it leaves a merged store. Reads and
 * writes go on meanwhile; a write made during the merge always wins over the merged copy, and a
 * deleted key never comes back.
 */
public final class Merger {

    // Over 400 lines: the four steps and what each does on failure read best as one sequence.

    private static final Logger LOG = LoggerFactory.getLogger(Merger.class);

    /** Final, safe everywhere. */
    private final StoreDirectory dir;
    /** Final, safe everywhere. */
    private final StoreStatus status;
    /** Final, safe everywhere. */
    private final LogWriter log;
    /** Final, safe everywhere. */
    private final KeyDirWriter keys;
    /** Final, safe everywhere. */
    private final KeyDir keyDir;
    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final UnforcedSegments unforced;
    /** Final, safe everywhere. */
    private final HintWriter hints;
    /** Final, safe everywhere. */
    private final ReaderGate gate;
    /** Final, safe everywhere. */
    private final GroupCommit commit;
    /** Final, safe everywhere. */
    private final Clock clock;
    /** Final, safe everywhere. */
    private final long segmentSize;
    /** Final, safe everywhere. */
    private final long bytesPerSecond;
    /** The foreground's sampled latency, which paces the copying; final, safe everywhere. */
    private final ForegroundLatency foreground;
    /** Whether the copying is paced by {@code foreground}; final. */
    private final boolean paced;
    /** Picks the inputs of a selective merge; final, safe everywhere. */
    private final SegmentSelector selector;
    /** Merge inputs already swapped out whose files could not be deleted, oldest first; merging thread, under the merge lock. */
    private final List<Path> undeletedInputs = new ArrayList<>();
    /** Why merges are refused until that debris is gone, or null; merging thread, under the merge lock. */
    private String refusal;
    /** Set once by close; the merging thread stops copying when it sees it. */
    private volatile boolean cancelled;

    /** A merger of the store whose parts these are. */
    public Merger(StoreDirectory dir, StoreStatus status, LogWriter log, KeyDirWriter keys, KeyDir keyDir, SegmentTable table,
                  UnforcedSegments unforced, HintWriter hints, ReaderGate gate, GroupCommit commit, Clock clock,
                  long segmentSize, long bytesPerSecond, ForegroundLatency foreground, boolean paced,
                  SegmentSelector selector) {
        this.dir = dir;
        this.status = status;
        this.log = log;
        this.keys = keys;
        this.keyDir = keyDir;
        this.table = table;
        this.unforced = unforced;
        this.hints = hints;
        this.gate = gate;
        this.commit = commit;
        this.clock = clock;
        this.segmentSize = segmentSize;
        this.bytesPerSecond = bytesPerSecond;
        this.foreground = foreground;
        this.paced = paced;
        this.selector = selector;
    }

    /** Stops a merge under way at its next record; close calls it. */
    public void cancel() {
        cancelled = true;
    }

    /**
     * Merges the segments {@code scope} takes: those the selector picks, or all of them; null when
     * none was worth merging. The caller holds the merge lock.
     */
    public MergeResult merge(MergeScope scope) {
        deleteDebris();
        long started = System.nanoTime();
        LogWriter.Seal seal = log.sealForMerge(all -> {
            List<Segment> inputs = scope == MergeScope.ALL ? SegmentSelector.all(all) : selector.select(all);
            if (!inputs.isEmpty()) {
                MergeHeadroom.ensure(dir, inputs, segmentSize); // before the seal: a refused merge changes nothing
            }
            return inputs;
        });
        if (seal == null) {
            return null;
        }
        List<Segment> inputs = seal.inputs();
        forceInputs();
        List<Segment> outputs = new ArrayList<>();
        List<Long> keptBytes = new ArrayList<>();
        Relocations moved = new Relocations();
        MergePacer pacer = new MergePacer(foreground, paced);
        long skipped = copyLiveRecords(seal, outputs, keptBytes, moved, pacer);
        if (skipped > 0) {
            LOG.warn("merge of {} passed over {} corrupt bytes; keys whose newest record lay there now read as absent", dir, skipped);
        }
        try {
            dir.force(); // the outputs' names, before any input can go
        } catch (RuntimeException e) {
            discardOutputs(outputs);
            throw status.fail(e);
        }
        long copied = swap(inputs, outputs, keptBytes, moved);
        long before = retireInputs(inputs);
        long after = outputs.stream().mapToLong(Segment::dataBytes).sum();
        List<Long> removed = inputs.stream().map(Segment::id).toList();
        List<Long> added = outputs.stream().map(Segment::id).toList();
        LOG.debug("merged {}: {} segments -> {}, {} records, {} -> {} bytes, rested {} ms for the foreground", dir,
                removed.size(), added.size(), copied, before, after, pacer.restedNanos() / 1_000_000);
        return new MergeResult(removed, added, before, after, copied, (System.nanoTime() - started) / 1_000_000,
                pacer.restedNanos() / 1_000_000, seal.segmentsInStore(), before);
    }

    /**
     * Every input is on the device before any copy of its records is: otherwise a power loss
     * could keep a copied batch member and lose the batch it came from.
     */
    private void forceInputs() {
        hints.writePending();
        try {
            unforced.forceAll();
            dir.forceIfChanged();
        } catch (RuntimeException e) {
            throw status.fail(e);
        }
    }

    /**
     * Copies every record the key directory still points at into new outputs, and the tombstones
     * that must stay (see {@link ShadowingTombstones}); the outputs are forced, named, opened and
     * hinted but not yet registered, and {@code keptBytes} holds the bytes of tombstones each one
     * kept. Returns the corrupt bytes passed over. On failure every output is removed and the
     * exception thrown.
     */
    private long copyLiveRecords(LogWriter.Seal seal, List<Segment> outputs, List<Long> keptBytes, Relocations moved,
                                 MergePacer pacer) {
        MergeThrottle throttle = new MergeThrottle(bytesPerSecond);
        long firstOut = seal.firstOutputId();
        Copy copy = new Copy(firstOut, firstOut + seal.reservedIds(), seal.oldestKeptId(), outputs, keptBytes, moved,
                throttle, pacer, clock.millis());
        List<Segment> inputs = seal.inputs();
        long skipped = 0;
        pacer.start();
        try {
            for (int i = 0; i < inputs.size(); i++) {
                Segment in = inputs.get(i);
                int index = i;
                skipped += new SegmentScanner(in.reader(), in.file(), in.end(), in.salt())
                        .scan(RecordFormat.FILE_HEADER_SIZE, (offset, buf, off, len) -> copy.record(index, in, offset, buf, off, len))
                        .skippedBytes();
            }
            copy.tombstones.keepShadowing(inputs, log, keys, copy::keepTombstone);
            copy.finish();
        } catch (RuntimeException | Error e) {
            copy.abandon();
            discardOutputs(outputs);
            if (e instanceof MergeCancelled) {
                throw new IllegalStateException("BitCask store " + dir + " closed during merge");
            }
            throw e;
        } finally {
            pacer.finish();
        }
        return skipped;
    }

    /** The copying step's state: the output being written and the ids left for more. Merging thread. */
    private final class Copy {
        /** Final. */
        private final long endOfIds;
        /** Final. */
        private final List<Segment> outputs;
        /** Final. */
        private final Relocations moved;
        /** Final. */
        private final MergeThrottle throttle;
        /** Final. */
        private final MergePacer pacer;
        /** The merge's clock reading: records that expired by then are dropped. Final. */
        private final long now;
        /** Id of the oldest segment the merge leaves in place: a record older than it may shadow one there. Final. */
        private final long oldestKept;
        /** Tombstone bytes kept in each finished output. Final. */
        private final List<Long> keptBytes;
        /** Tombstones that may have to stay. Final. */
        private final ShadowingTombstones tombstones = new ShadowingTombstones();
        /** Tombstone bytes kept in the output being written. */
        private long kept;
        /** The id the next output takes. */
        private long nextOut;
        /** The output being written, or null. */
        private MergeOutput current;

        Copy(long firstOut, long endOfIds, long oldestKept, List<Segment> outputs, List<Long> keptBytes, Relocations moved,
             MergeThrottle throttle, MergePacer pacer, long now) {
            this.nextOut = firstOut;
            this.oldestKept = oldestKept;
            this.keptBytes = keptBytes;
            this.endOfIds = endOfIds;
            this.outputs = outputs;
            this.moved = moved;
            this.throttle = throttle;
            this.pacer = pacer;
            this.now = now;
        }

        /**
         * Copies a record of {@code in}, input {@code index}, if the key directory still points at
         * it. A tombstone or an expired record hides older records of its key, so it goes only when
         * no older segment survives the merge; otherwise the tombstone is noted for
         * {@link ShadowingTombstones} and the expired record copied like a live one.
         */
        void record(int index, Segment in, long offset, byte[] buf, int off, int len) {
            if (cancelled) {
                throw new MergeCancelled();
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
        void keepTombstone(Segment in, long offset, byte[] buf, int len) {
            if (cancelled) {
                throw new MergeCancelled();
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
        void finish() {
            if (current != null) {
                MergeOutput done = current;
                current = null;
                outputs.add(openOutput(done));
                keptBytes.add(kept);
                kept = 0;
            }
        }

        /** Removes the temporary file of the output being written, if any. */
        void abandon() {
            if (current != null) {
                current.discardTemporary();
            }
        }
    }

    /**
     * Finishes an output and opens it under its final name. Once renamed, the file is either
     * returned (and later registered or discarded) or deleted here; if it can be neither opened nor
     * deleted, it is debris that must go before any later merge may drop a tombstone.
     */
    private Segment openOutput(MergeOutput out) {
        try {
            out.cut();
        } catch (RuntimeException e) {
            out.discardTemporary();
            throw e;
        }
        try {
            out.force();
        } catch (RuntimeException e) {
            out.discardTemporary();
            throw status.fail(e);
        }
        out.rename();
        SegmentReader reader = null;
        try {
            reader = dir.backend().openReadOnly(out.file());
            Segment seg = new Segment(out.id(), out.salt(), table.allocateSlot(), out.file(), reader, null, out.end());
            seg.durableTo(out.end());
            hints.write(seg);
            return seg;
        } catch (RuntimeException e) {
            if (reader != null) {
                reader.close();
            }
            deleteOrRemember(out.file());
            throw e;
        }
    }

    /** Closes and deletes outputs of a merge that failed before its swap. */
    private void discardOutputs(List<Segment> outputs) {
        for (Segment o : outputs) {
            o.close();
            table.release(o.slot());
            deleteOrRemember(o.file());
        }
    }

    /** Deletes a data file and its hint; one that cannot be deleted is kept as debris. */
    private void deleteOrRemember(Path data) {
        try {
            dir.deleteSegmentFiles(data);
        } catch (RuntimeException e) {
            undeletedInputs.add(data);
            refusal = "cannot delete " + data + " (" + e.getMessage() + ")";
            LOG.warn("{}; merges are refused until it can be deleted", refusal);
        }
    }

    /**
     * Deletes what earlier merges could not, oldest first; until every such file is gone no merge
     * runs, since one that drops a tombstone would let a left-over file bring its key back.
     */
    private void deleteDebris() {
        while (!undeletedInputs.isEmpty()) {
            Path data = undeletedInputs.get(0);
            try {
                dir.deleteSegmentFiles(data);
                dir.force();
            } catch (RuntimeException e) {
                throw new BitCaskException("merge refused: " + refusal + "; still " + e.getMessage(), e);
            }
            undeletedInputs.remove(0);
        }
        refusal = null;
    }

    /** Registers the outputs and points the key directory at the copies, unless a write moved a key meanwhile. */
    private long swap(List<Segment> inputs, List<Segment> outputs, List<Long> keptBytes, Relocations moved) {
        return log.asWriter(() -> {
            for (int i = 0; i < outputs.size(); i++) {
                outputs.get(i).addLive(keptBytes.get(i));
                table.register(outputs.get(i));
            }
            long copied = 0;
            for (int i = 0; i < moved.size(); i++) {
                if (keys.relocate(moved.hash(i), moved.from(i), outputs.get(moved.output(i)), moved.offset(i), moved.length(i))) {
                    copied++;
                }
            }
            keys.dropEntriesOf(inputs);
            table.forget(inputs);
            return copied;
        });
    }

    /**
     * Retires the inputs: unreachable first, then unmapped once no reader is left in them, then
     * (once everything that superseded a record they hold is forced) deleted oldest first, forcing
     * the directory after each deletion so that after a power loss the inputs left are a suffix,
     * which replays correctly. Returns their data bytes.
     */
    private long retireInputs(List<Segment> inputs) {
        // Their slots stay reserved until they are closed, so no new segment can answer to a stale location.
        table.unreachable(inputs);
        hints.removeAll(inputs);
        unforced.removeAll(inputs);
        gate.awaitReaders();
        long before = 0;
        for (Segment in : inputs) {
            before += in.dataBytes();
            in.close();
        }
        inputs.forEach(in -> table.release(in.slot()));
        // A merge must not make a power loss lose more than it would have lost without it.
        try {
            commit.syncAll();
        } catch (RuntimeException e) {
            inputs.forEach(in -> undeletedInputs.add(in.file()));
            refusal = "merged segments were kept because a force failed";
            throw e;
        }
        for (int n = 0; n < inputs.size(); n++) {
            try {
                dir.deleteSegmentFiles(inputs.get(n).file());
            } catch (RuntimeException e) {
                for (int m = n; m < inputs.size(); m++) {
                    undeletedInputs.add(inputs.get(m).file());
                }
                refusal = "cannot delete merged segment " + inputs.get(n).file() + " (" + e.getMessage() + ")";
                throw new BitCaskException("merge of " + dir + " completed, but " + refusal
                        + "; merges are refused until it can be deleted", e);
            }
            try {
                dir.forceIfChanged();
            } catch (RuntimeException e) {
                throw status.fail(e);
            }
        }
        return before;
    }

    /** Thrown inside the copy when close cancels the merge; never escapes {@link #copyLiveRecords}. */
    private static final class MergeCancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MergeCancelled() {
            super(null, null, false, false);
        }
    }
}
