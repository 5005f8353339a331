package io.caskbench.bitcask.log;

import io.caskbench.bitcask.BitCaskCorruptionException;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.index.SlotTable;
import io.caskbench.bitcask.index.SpinWait;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Threading: any thread, no lock. A read probes the key directory with acquire loads and reads
 * the record inside the reader gate, which close and merge wait on before they unmap a segment.
 *
 * <p>Point reads and iteration. Every record is checked before a byte of it is returned: its
 * header against the directory slot, its key, and its CRC; those checks are written once, in
 * {@link #load}, for both. A check that fails because the reader lost a race with a writer or a
 * merge (the slot changed, or the table was replaced) is retried, never reported as corruption.
 * Under {@code ALWAYS} nothing is returned that a power loss could still undo: a read that finds
 * a record not yet forced leaves the gate, joins the group commit, and reads again.
 */
public final class RecordReader {

    /** Marks a found record in {@link #read} when the caller wants no copy of its value. */
    private static final byte[] PRESENT = new byte[0];
    /** Marks a found record that a power loss could still undo; the reader waits for it outside the gate. */
    private static final byte[] NOT_DURABLE = new byte[0];
    /** {@link #load}: the record was read and checked. */
    private static final int LOADED = 1;
    /** {@link #load}: the slot changed under the reader; read again. */
    private static final int MOVED = 0;
    /** {@link #load}: the record holds another key with the same hash. */
    private static final int OTHER_KEY = 2;
    /** {@link #readBlockOnce}: a record in the block is not yet forced. */
    private static final int BLOCK_NOT_DURABLE = -1;
    /** About this many slots per block of the hash space that iteration reads at once. */
    private static final int VISIT_BLOCK_SLOTS = 256;
    private static final long HASH_SPACE = 1L << 32;

    /** Final, safe everywhere. */
    private final KeyDir keyDir;
    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final ReaderGate gate;
    /** Final, safe everywhere. */
    private final BatchFence fence;
    /** Final, safe everywhere. */
    private final StoreStatus status;
    /** Final, safe everywhere. */
    private final GroupCommit commit;
    /** Final, safe everywhere. */
    private final Clock clock;
    /** Under {@code ALWAYS}: reads must not return what a power loss could undo. Final. */
    private final boolean syncAlways;

    /** A reader of the records {@code keyDir} points at. */
    public RecordReader(KeyDir keyDir, SegmentTable table, ReaderGate gate, BatchFence fence, StoreStatus status,
                        GroupCommit commit, Clock clock, boolean syncAlways) {
        this.keyDir = keyDir;
        this.table = table;
        this.gate = gate;
        this.fence = fence;
        this.status = status;
        this.commit = commit;
        this.clock = clock;
        this.syncAlways = syncAlways;
    }

    /**
     * A point read: the value of {@code key}, or null when it is absent, deleted or expired; when
     * {@code copy} is false, a non-null array that is not the value stands for a live one. Under
     * {@code ALWAYS} it never returns what a power loss could still undo: when the record it found
     * is not yet forced, it leaves the reader gate (which close and merge wait on), joins the
     * group commit, and reads again.
     */
    public byte[] get(byte[] key, boolean copy) {
        int hash = KeyHash.hash(key);
        while (true) {
            byte[] result;
            int token = gate.enter();
            try {
                status.ensureOpen();
                result = readOutsideBatches(key, hash, copy);
            } finally {
                gate.exit(token);
            }
            if (result != NOT_DURABLE) {
                return result;
            }
            commit.syncAll();
        }
    }

    /** A point read that never sees half a batch: a read that overlapped a batch's publication is repeated. */
    private byte[] readOutsideBatches(byte[] key, int hash, boolean copy) {
        for (int spins = 0; ; spins++) {
            long v = fence.version();
            if (!BatchFence.stable(v)) {
                SpinWait.pause(spins);
                continue;
            }
            byte[] result = read(key, hash, copy);
            if (fence.unchanged(v)) {
                return result;
            }
        }
    }

    /**
     * Probes the key directory and reads the record; {@code PRESENT} instead of a copy when !copy,
     * {@code NOT_DURABLE} when the record must first be forced.
     */
    private byte[] read(byte[] key, int hash, boolean copy) {
        retry:
        while (true) {
            SlotTable t = keyDir.table();
            for (int i = t.first(hash); ; i = t.next(i)) {
                long loc = t.location(i);
                if (loc == 0) {
                    return null;
                }
                if (t.hash(i) != hash || loc == Location.DELETED) {
                    continue;
                }
                int len = t.length(i);
                Segment seg = segmentFor(t, i, loc, len);
                if (seg == null) {
                    continue retry;
                }
                byte[] buf = Scratch.of(Scratch.READ, len);
                int loaded = load(t, i, loc, len, seg, buf, key);
                if (loaded == MOVED) {
                    continue retry;
                }
                if (loaded == OTHER_KEY) {
                    continue;
                }
                if (syncAlways && Location.offset(loc) + len > seg.durableEnd()) {
                    return NOT_DURABLE;
                }
                int flags = RecordFormat.flags(buf, 0);
                if (Location.isDeleted(loc) || (flags & RecordFormat.TOMBSTONE) != 0) {
                    return null;
                }
                if ((flags & RecordFormat.EXPIRES) != 0 && RecordFormat.expiresAt(buf, 0) <= clock.millis()) {
                    return null;
                }
                return copy ? Arrays.copyOfRange(buf, RecordFormat.keyOffset(flags) + key.length, len) : PRESENT;
            }
        }
    }

    /**
     * The segment slot {@code i} points into; null when the slot moved under the reader.
     *
     * @throws BitCaskCorruptionException when the slot points nowhere and did not move
     */
    private Segment segmentFor(SlotTable t, int i, long loc, int len) {
        Segment seg = table.of(loc);
        if (seg == null || len <= 0 || len > RecordFormat.MAX_RECORD_LENGTH) {
            if (moved(t, i, loc, len)) {
                return null;
            }
            throw corrupt(seg, loc, "index entry points nowhere (len " + len + ", seg " + seg + ")");
        }
        return seg;
    }

    /**
     * Reads the record slot {@code i} points at into {@code buf} and checks it: its stated length
     * against the slot's, its key against {@code key} when there is one, and its CRC. Returns
     * {@link #LOADED}, {@link #MOVED} when a failed check is explained by a lost race, or
     * {@link #OTHER_KEY}.
     *
     * @throws BitCaskCorruptionException when a check fails and the slot did not move
     */
    private int load(SlotTable t, int i, long loc, int len, Segment seg, byte[] buf, byte[] key) {
        long offset = Location.offset(loc);
        try {
            seg.reader().read(offset, buf, 0, len);
        } catch (BitCaskException e) {
            if (moved(t, i, loc, len)) {
                return MOVED;
            }
            throw e;
        }
        if (storedLength(buf) != len) {
            if (moved(t, i, loc, len)) {
                return MOVED;
            }
            throw corrupt(seg, loc, "record header does not match its index entry");
        }
        if (key != null) {
            int keyOff = RecordFormat.keyOffset(RecordFormat.flags(buf, 0));
            if (RecordFormat.keyLength(buf, 0) != key.length
                    || !Arrays.equals(buf, keyOff, keyOff + key.length, key, 0, key.length)) {
                return OTHER_KEY;
            }
        }
        if (!RecordFormat.crcMatches(buf, 0, len, seg.salt(), offset)) {
            if (moved(t, i, loc, len)) {
                return MOVED;
            }
            throw corrupt(seg, loc, "CRC mismatch");
        }
        return LOADED;
    }

    /** Length of the record at {@code buf[0]} as its header states it, whether it stands alone or in a batch; -1 when implausible. */
    private static int storedLength(byte[] buf) {
        return RecordFormat.plausibleLength(buf, 0, (RecordFormat.flags(buf, 0) & RecordFormat.IN_BATCH) != 0);
    }

    /**
     * True when the slot no longer says what the reader read from it, an update of it is under
     * way, or a newer table replaced it: the reader lost a race and reads again.
     */
    private boolean moved(SlotTable t, int i, long loc, int len) {
        return !t.unchanged(i, loc, len) || keyDir.table() != t;
    }

    private BitCaskCorruptionException corrupt(Segment seg, long loc, String what) {
        return new BitCaskCorruptionException((seg == null ? "segment slot " + Location.slot(loc) : seg.file().toString())
                + " at offset " + Location.offset(loc) + ": " + what);
    }

    /**
     * Calls {@code sink} with each live key and, when {@code withValues}, its value (else null).
     * Weakly consistent; keys are visited in blocks of the hash space, and no block shows part of
     * a batch without the rest of it. The arrays are fresh copies, and {@code sink} runs outside
     * the gate.
     */
    public void forEach(BiConsumer<byte[], byte[]> sink, boolean withValues) {
        status.ensureOpen();
        List<byte[]> pairs = new ArrayList<>();
        for (long lo = 0; lo < HASH_SPACE; ) {
            int capacity = keyDir.table().capacity();
            long width = Math.max(1, HASH_SPACE / Math.max(1, capacity / VISIT_BLOCK_SLOTS));
            long hi = Math.min(HASH_SPACE, lo + width);
            readBlock(lo, hi, withValues, pairs);
            for (int p = 0; p < pairs.size(); p += 2) {
                sink.accept(pairs.get(p), pairs.get(p + 1));
            }
            pairs.clear();
            lo = hi;
        }
    }

    /**
     * Reads the live keys whose hash lies in {@code [lo, hi)} (unsigned) into {@code out} as
     * key, value pairs, from one table and between two batch publications; a block that lost a
     * race with a writer, a merge or a growing table is read again whole.
     */
    private void readBlock(long lo, long hi, boolean withValues, List<byte[]> out) {
        for (int attempt = 0; ; attempt++) {
            out.clear();
            long v = fence.version();
            if (!BatchFence.stable(v)) {
                SpinWait.pause(attempt);
                continue;
            }
            boolean complete;
            boolean mustSync;
            int token = gate.enter();
            try {
                status.ensureOpen();
                int r = readBlockOnce(keyDir.table(), lo, hi, withValues, out);
                complete = r == LOADED && fence.unchanged(v);
                mustSync = r == BLOCK_NOT_DURABLE;
            } finally {
                gate.exit(token);
            }
            if (complete) {
                return;
            }
            if (mustSync) {
                commit.syncAll();
            }
        }
    }

    /** One pass over a block: {@link #LOADED}, {@link #MOVED} or {@link #BLOCK_NOT_DURABLE}. */
    private int readBlockOnce(SlotTable t, long lo, long hi, boolean withValues, List<byte[]> out) {
        long now = clock.millis();
        int from = t.first((int) lo);
        int homeSpan = t.first((int) (hi - 1)) - from;
        for (int step = 0, i = from; step < t.capacity(); step++, i = t.next(i)) {
            long loc = t.location(i);
            if (loc == 0) {
                if (step > homeSpan) {
                    return LOADED; // past every home slot of the block and the runs that follow them
                }
                continue;
            }
            long h = Integer.toUnsignedLong(t.hash(i));
            if (h < lo || h >= hi || Location.isDeleted(loc)) {
                continue;
            }
            int len = t.length(i);
            Segment seg = segmentFor(t, i, loc, len);
            if (seg == null) {
                return MOVED;
            }
            byte[] buf = new byte[len];
            if (load(t, i, loc, len, seg, buf, null) == MOVED) {
                return MOVED;
            }
            if (syncAlways && Location.offset(loc) + len > seg.durableEnd()) {
                return BLOCK_NOT_DURABLE;
            }
            int flags = RecordFormat.flags(buf, 0);
            if ((flags & RecordFormat.EXPIRES) != 0 && RecordFormat.expiresAt(buf, 0) <= now) {
                continue;
            }
            int keyOff = RecordFormat.keyOffset(flags);
            int keyEnd = keyOff + RecordFormat.keyLength(buf, 0);
            out.add(Arrays.copyOfRange(buf, keyOff, keyEnd));
            out.add(withValues ? Arrays.copyOfRange(buf, keyEnd, len) : null);
        }
        return LOADED;
    }
}
