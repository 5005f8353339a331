package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.log.GroupCommit;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.HintWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.UnforcedSegments;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Threading: one merging thread at a time, which holds the store's merge lock; {@code cancelled}
 * is set by close from any thread.
 *
 * <p>Compaction in four steps: seal the active segment and force every input; copy the live
 * records into outputs ({@link MergeCopy}); swap the key directory over to the copies; retire the inputs. A failure
 * before the swap leaves the store as it was; one after it leaves a merged store. Reads and
 * writes go on meanwhile; a write made during the merge always wins over the merged copy, and a
 * deleted key never comes back.
 */
public final class Merger {

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
    /** Whether a paced merge may rest now: not while writes wait for it; final, safe everywhere. */
    private final BooleanSupplier restAllowed;
    /** Picks the inputs of a selective merge; final, safe everywhere. */
    private final SegmentSelector selector;
    /** Merge inputs already swapped out whose files could not be deleted, oldest first; merging thread, under the merge lock. */
    private final List<Path> undeletedInputs = new ArrayList<>();
    /** Why merges are refused until that debris is gone, or null; merging thread, under the merge lock. */
    private String refusal;
    /** Set once by close, from any thread; the merging thread stops copying when it sees it. */
    private volatile boolean cancelled;

    /** A merger of the store whose parts these are. */
    public Merger(StoreDirectory dir, StoreStatus status, LogWriter log, KeyDirWriter keys, KeyDir keyDir, SegmentTable table,
                  UnforcedSegments unforced, HintWriter hints, ReaderGate gate, GroupCommit commit, Clock clock,
                  long segmentSize, long bytesPerSecond, ForegroundLatency foreground, boolean paced,
                  BooleanSupplier restAllowed, SegmentSelector selector) {
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
        this.restAllowed = restAllowed;
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
        List<Segment> unhinted = hints.withhold(inputs);
        forceInputs();
        MergePacer pacer = new MergePacer(foreground, paced, restAllowed);
        MergeCopy copy = new MergeCopy(dir, keyDir, segmentSize, seal, new MergeThrottle(bytesPerSecond), pacer,
                clock.millis(), () -> cancelled, this::openOutput);
        long skipped = copyLiveRecords(copy, inputs, unhinted, pacer);
        List<Segment> outputs = copy.outputs();
        if (skipped > 0) {
            LOG.warn("merge of {} passed over {} corrupt bytes; keys whose newest record lay there now read as absent", dir, skipped);
        }
        try {
            dir.force(); // the outputs' names, before any input can go
        } catch (RuntimeException e) {
            discardOutputs(outputs);
            throw status.fail(e);
        }
        long copied = swap(inputs, outputs, copy.keptBytes(), copy.moved());
        long before = retireInputs(inputs);
        long after = outputs.stream().mapToLong(Segment::dataBytes).sum();
        List<Long> removed = inputs.stream().map(Segment::id).toList();
        List<Long> added = outputs.stream().map(Segment::id).toList();
        LOG.debug("merged {}: {} segments -> {}, {} records, {} -> {} bytes, rested {} ms for the foreground", dir,
                removed.size(), added.size(), copied, before, after, pacer.restedNanos() / 1_000_000);
        return new MergeResult(removed, added, before, after, copied, (System.nanoTime() - started) / 1_000_000,
                pacer.restedNanos() / 1_000_000, seal.segmentsInStore(), copy.bytesRead());
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
     * Runs the copy step (see {@link MergeCopy}) paced by {@code pacer}; returns the corrupt bytes
     * passed over. On failure every output is removed, the inputs whose hint files the merge held
     * back ({@code unhinted}) are queued for them again, and the exception thrown.
     */
    private long copyLiveRecords(MergeCopy copy, List<Segment> inputs, List<Segment> unhinted, MergePacer pacer) {
        pacer.start();
        try {
            return copy.copyAll(inputs, log, keys);
        } catch (RuntimeException | Error e) {
            discardOutputs(copy.outputs());
            unhinted.forEach(hints::sealed);
            if (e instanceof MergeCopy.Cancelled) {
                throw new IllegalStateException("BitCask store " + dir + " closed during merge");
            }
            throw e;
        } finally {
            pacer.finish();
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

    /**
     * Registers the outputs and points the key directory at the copies, unless a write moved a key meanwhile.
     * The table's figures are in flux throughout (see {@link SegmentTable#stable}).
     */
    private long swap(List<Segment> inputs, List<Segment> outputs, List<Long> keptBytes, Relocations moved) {
        return log.asWriter(() -> {
            table.beginSwap();
            try {
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
            } finally {
                table.endSwap();
            }
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
}
