package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.events.StoreOpenEvent;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.HintReader;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentScanner;
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.UnforcedSegments;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Threading: the opening thread only, before any other thread sees the store.
 *
 * <p>Everything open does to the files: removes what interrupted writes left, loads every data
 * file into the key directory (from its hint file when that checks out, else by a scan that
 * skips corruption and finds a torn tail), reopens the newest segment for writing cut at its
 * valid end (the bytes it cuts kept in a {@link KeptTail} file first), and makes whatever it created
 * or removed durable. It returns what it found for the
 * log writer to go on from.
 */
public final class Recovery {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    /** Final, safe everywhere. */
    private final StoreDirectory dir;
    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final KeyDir keyDir;
    /** Final, safe everywhere. */
    private final KeyDirWriter keys;
    /** Final, safe everywhere. */
    private final UnforcedSegments unforced;
    /** Final, safe everywhere. */
    private final long segmentSize;
    /** Final, safe everywhere. */
    private final long expectedKeys;
    /** Final, safe everywhere. */
    private final boolean readOnly;
    /** Final, safe everywhere. */
    private final boolean syncAlways;
    /** Most hint files loaded in one hash-ordered sweep (see {@link HintSweep}). Final. */
    private final int hintSweepFiles;
    /** The segment writes go on in, null while none is found; opening thread. */
    private Segment active;
    /** Bytes of data files read record by record so far; opening thread. */
    private long scannedBytes;

    /**
     * What recovery found.
     *
     * @param active the segment to append to, null when read-only
     * @param nextId the id of the next new segment
     */
    public record Recovered(Segment active, long nextId) {
    }

    /** Recovery of the store in {@code dir} into {@code table} and {@code keyDir}. */
    public Recovery(StoreDirectory dir, SegmentTable table, KeyDir keyDir, KeyDirWriter keys, UnforcedSegments unforced,
                    long segmentSize, long expectedKeys, boolean readOnly, boolean syncAlways) {
        this(dir, table, keyDir, keys, unforced, segmentSize, expectedKeys, readOnly, syncAlways, HintSweep.MAX_FILES);
    }

    /**
     * The same, loading at most {@code hintSweepFiles} hint files at once: a store's open uses
     * {@link HintSweep#MAX_FILES}, and tests fewer, so that one open runs several sweeps.
     */
    public Recovery(StoreDirectory dir, SegmentTable table, KeyDir keyDir, KeyDirWriter keys, UnforcedSegments unforced,
                    long segmentSize, long expectedKeys, boolean readOnly, boolean syncAlways, int hintSweepFiles) {
        this.dir = dir;
        this.table = table;
        this.keyDir = keyDir;
        this.keys = keys;
        this.unforced = unforced;
        this.segmentSize = segmentSize;
        this.expectedKeys = expectedKeys;
        this.readOnly = readOnly;
        this.syncAlways = syncAlways;
        this.hintSweepFiles = hintSweepFiles;
    }

    /** Recovers the store; once. */
    public Recovered run() {
        StoreOpenEvent event = new StoreOpenEvent();
        event.begin();
        for (Path tmp : SegmentFiles.tempFiles(dir.path())) {
            if (!readOnly) {
                try {
                    dir.backend().delete(tmp);
                    dir.changed();
                    LOG.debug("removed {} left by an interrupted write", tmp);
                } catch (BitCaskException e) {
                    LOG.warn("cannot remove {}: {}", tmp, e.getMessage());
                }
            }
        }
        List<Long> ids = SegmentFiles.dataIds(dir.path());
        long started = System.nanoTime();
        keyDir.reserve(Math.min(KeyDir.MAX_KEYS, Math.max(expectedKeys, hintedEntries(ids))));
        int fromHints = 0;
        try (HintSweep sweep = new HintSweep(keys, hintSweepFiles)) {
            for (int n = 0; n < ids.size(); n++) {
                if (loadSegment(ids.get(n), n == ids.size() - 1, sweep)) {
                    fromHints++;
                }
            }
            sweep.apply();
        } catch (IllegalStateException full) {
            throw new BitCaskException(dir + " holds more keys than one key directory can (" + KeyDir.MAX_KEYS + ")", full);
        }
        long nextId = ids.isEmpty() ? 1 : ids.get(ids.size() - 1) + 1;
        if (!readOnly) {
            if (active == null) {
                active = table.create(nextId++);
                dir.changed();
            }
            if (syncAlways) {
                unforced.forceAll();
                active.force(dir.backend());
            }
            dir.forceIfChanged(); // whatever open created or removed is durable before a write is acknowledged
        }
        LOG.debug("opened {}: {} segments ({} from hints), {} keys in {} ms", dir, ids.size(), fromHints,
                keyDir.size(), (System.nanoTime() - started) / 1_000_000);
        event.end();
        if (event.shouldCommit()) {
            event.store = dir.path().toString();
            event.segments = ids.size();
            event.keys = keyDir.size();
            event.bytesScanned = scannedBytes;
            event.hintsUsed = fromHints;
            event.commit();
        }
        return new Recovered(active, nextId);
    }

    /** Entries the hint files claim to hold (their footers): the directory is sized for them up front. */
    private long hintedEntries(List<Long> ids) {
        long total = 0;
        byte[] footer = new byte[HintFormat.FOOTER_SIZE];
        for (long id : ids) {
            Path hint = SegmentFiles.hintFile(dir.path(), id);
            try (FileChannel ch = FileChannel.open(hint, StandardOpenOption.READ)) {
                long size = ch.size();
                if (size >= HintFormat.HEADER_SIZE + HintFormat.FOOTER_SIZE) {
                    ByteBuffer b = ByteBuffer.wrap(footer);
                    while (b.hasRemaining() && ch.read(b, size - HintFormat.FOOTER_SIZE + b.position()) > 0) {
                        // read the footer whole
                    }
                    total += Math.max(0, Math.min(RecordFormat.getInt(footer, HintFormat.FOOTER_COUNT), size / HintFormat.ENTRY_SIZE));
                }
            } catch (IOException absentOrUnreadable) {
                // only a size estimate: the directory grows as the segment is loaded
            }
        }
        return total;
    }

    /**
     * Loads one data file into the key directory, or hands it to {@code sweep} when its hint file
     * lists all of it; returns true when its hint file was used. Before it applies anything itself,
     * it applies the sweep, so every key's records go in oldest first.
     */
    private boolean loadSegment(long id, boolean newest, HintSweep sweep) {
        Path file = SegmentFiles.dataFile(dir.path(), id);
        SegmentReader reader = dir.backend().openReadOnly(file);
        long length;
        long salt;
        try {
            length = reader.size();
            salt = readSalt(reader, file, id, length);
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
        if (salt == SegmentTable.NO_SALT) {
            reader.close();
            if (newest && !readOnly && length <= RecordFormat.FILE_HEADER_SIZE) {
                // A segment whose creation was cut short holds no record: start it again.
                active = table.create(id);
                dir.changed();
            }
            return false;
        }
        int slot;
        try {
            slot = table.allocateSlot();
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
        Segment seg = new Segment(id, salt, slot, file, reader, null, length);
        table.register(seg);
        long scanFrom = RecordFormat.FILE_HEADER_SIZE;
        boolean hinted = false;
        boolean reopen = newest && !readOnly;
        Path hintFile = SegmentFiles.hintFile(dir.path(), id);
        SegmentReader hintReader = openHint(hintFile);
        CheckedHint hint = hintReader == null ? null : checkHint(seg, hintFile, hintReader, length);
        if (hint != null && hint.validation.covered() == length && !reopen) {
            sweep.add(seg, hintFile, hint.file, hint.size, hint.validation);
            seg.end(length);
            if (!readOnly) {
                unforced.add(seg);
            }
            return true;
        }
        if (hint != null) {
            // a hint that leaves a tail to scan, or the segment reopened for writes
            sweep.add(seg, hintFile, hint.file, hint.size, hint.validation);
        }
        sweep.apply(); // everything older, and this hint, before anything of the tail
        if (hint != null) {
            scanFrom = hint.validation.covered();
            hinted = true;
        }
        long end = Math.max(scanFrom, Math.min(length, RecordFormat.FILE_HEADER_SIZE));
        long torn = 0;
        if (scanFrom < length) {
            scannedBytes += length - scanFrom;
            SegmentScanner.Result r = new SegmentScanner(reader, file, length, salt)
                    .scan(scanFrom, (offset, buf, off, len) -> applyRecord(seg, offset, buf, off, len));
            end = r.end();
            torn = r.tornBytes();
        }
        if (reopen && torn > 0 && !keepTail(reader, file, id, salt, end, length)) {
            reopen = false; // the segment stays as it is, sealed, and writes go to a new one
        }
        seg.end(end);
        if (reopen) {
            // The newest segment stays the active one: reopen it for writing, cut at its valid end.
            reader.close();
            SegmentWriter w = dir.backend().openWritable(file, segmentSize);
            Segment writable = new Segment(id, salt, seg.slot(), file, w, w, end);
            writable.addLive(seg.liveBytes());
            table.replace(seg, writable); // registered before anything can fail, so a failed open closes it
            if (w.size() > end) {
                w.truncate(end);
            }
            active = writable;
        } else if (!readOnly) {
            unforced.add(seg);
        }
        return hinted;
    }

    /**
     * Keeps the bytes from {@code cut} to {@code length} that cutting the newest segment would delete,
     * when a record in them checks (see {@link KeptTail}); true when the segment may be cut. When they
     * cannot be kept (a full disk), false, with a WARN: the segment must then not be cut or written to.
     */
    private boolean keepTail(SegmentReader reader, Path file, long id, long salt, long cut, long length) {
        try {
            Path tail = KeptTail.keep(dir.backend(), reader, file, id, salt, cut, length);
            if (tail != null) {
                LOG.warn("{}: the {} bytes from offset {} are cut off the newest segment and kept in {}, which no store operation"
                        + " reads or deletes; 'bitcask dump --skip-corrupt' writes out the records in them that check", file,
                        length - cut, cut, tail);
            }
            return true;
        } catch (BitCaskException e) {
            LOG.warn("{}: cannot keep the {} bytes from offset {} that open would cut off ({}); the segment is left as it is,"
                    + " and writes go to a new one", file, length - cut, cut, e.getMessage());
            return false;
        }
    }

    /**
     * The salt of a data file's header, from whichever copy is intact; {@link SegmentTable#NO_SALT}
     * when neither is, so its records cannot be checked. Such a file is never truncated or merged: a
     * newest one that holds nothing beyond a header's length was cut short at creation, and anything
     * longer is kept for a person to look at, with a WARN.
     *
     * @throws BitCaskException when the file is of another format version
     */
    static long readSalt(SegmentReader reader, Path file, long id, long length) {
        byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
        reader.read(0, header, 0, (int) Math.min(length, header.length));
        int at = length >= RecordFormat.FILE_HEADER_SIZE ? RecordFormat.intactHeaderBlock(header) : -1;
        if (at < 0 && RecordFormat.isVersionOneHeader(header)) {
            throw new BitCaskException(file + " is in format version 1; this version of bitcask-core reads version "
                    + RecordFormat.VERSION + " only. Copy the data into a new store with the version that wrote it");
        }
        if (at < 0) {
            if (length > RecordFormat.FILE_HEADER_SIZE) {
                LOG.warn("{}: neither copy of the file header can be read, so none of its records can be checked; "
                        + "the file is left as it is and skipped", file);
            }
            return SegmentTable.NO_SALT;
        }
        int version = RecordFormat.headerVersion(header, at);
        if (version != RecordFormat.VERSION) {
            throw new BitCaskException(file + " is in format version " + version + "; this version of bitcask-core reads version "
                    + RecordFormat.VERSION + (version > RecordFormat.VERSION ? ": open it with a newer release" : ""));
        }
        if (RecordFormat.headerSegmentId(header, at) != id) {
            LOG.warn("{}: its header names segment {}; its records are read all the same", file, RecordFormat.headerSegmentId(header, at));
        }
        long salt = RecordFormat.headerSalt(header, at);
        if (salt == SegmentTable.NO_SALT) {
            LOG.warn("{}: its header has no salt, so it was not written by this store; the file is skipped", file);
        }
        return salt;
    }

    /**
     * A data file's hint file, opened through the backend to be read front to back (never copied whole
     * into the heap; see {@link HintSweep}), or null when there is none.
     */
    private SegmentReader openHint(Path hintFile) {
        if (!Files.isRegularFile(hintFile)) {
            return null;
        }
        try {
            return dir.backend().openReadOnly(hintFile);
        } catch (BitCaskException e) {
            if (Files.notExists(hintFile)) {
                return null; // removed between the two calls: as if it had never been there
            }
            throw e;
        }
    }

    /** A hint file that checked out, still open, its size and what its check found. */
    private record CheckedHint(SegmentReader file, long size, HintFormat.Validation validation) {
    }

    /**
     * A hint file that checked out, left open for the sweep; null, with a WARN and the file closed,
     * when it is unusable.
     */
    private CheckedHint checkHint(Segment seg, Path hintFile, SegmentReader hint, long dataLength) {
        long size;
        HintFormat.Validation v;
        try {
            size = hint.size();
            v = HintFormat.validate(new HintReader(hint::read, size, true), seg.id(), seg.salt(), dataLength);
        } catch (RuntimeException | Error e) {
            HintSweep.close(hint, e);
            throw e;
        }
        if (!v.usable()) {
            hint.close();
            LOG.warn("{}: unusable hint file ({}); scanning {} instead", hintFile, v.reason(), seg.file());
            return null;
        }
        return new CheckedHint(hint, size, v);
    }

    private void applyRecord(Segment seg, long offset, byte[] buf, int off, int len) {
        int flags = RecordFormat.flags(buf, off);
        int keyOff = off + RecordFormat.keyOffset(flags);
        int keyLength = RecordFormat.keyLength(buf, off);
        keys.index(seg, offset, len, flags, buf, keyOff, keyLength, KeyHash.hash(buf, keyOff, keyLength));
    }
}
