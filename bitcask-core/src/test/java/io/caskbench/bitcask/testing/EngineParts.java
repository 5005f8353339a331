package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.log.BatchFence;
import io.caskbench.bitcask.log.GroupCommit;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.log.RecordReader;
import io.caskbench.bitcask.log.WriteLimit;
import io.caskbench.bitcask.log.WriteProtocol;
import io.caskbench.bitcask.recovery.Recovery;
import io.caskbench.bitcask.segment.HintWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentScanner;
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.UnforcedSegments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's parts below the facade, wired over one directory as a store wires them, with
 * {@code SyncPolicy.NEVER} and a fixed clock: for the tests that drive the log writer and recovery
 * themselves. One instance is one open; a reopen is a new instance over the same directory.
 * Nothing forces: these tests never lose power.
 */
public final class EngineParts implements AutoCloseable {

    /** The clock every record is stamped with: fixed, so that no record ever expires. */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    /** The directory and its backend. */
    public final StoreDirectory files;
    /** Open, closed or failed. */
    public final StoreStatus status;
    /** Key to record location. */
    public final KeyDir keyDir;
    /** The segments by slot and by id. */
    public final SegmentTable table;
    /** The readers' gate. */
    public final ReaderGate gate = new ReaderGate();
    /** Sealed segments not yet forced. */
    public final UnforcedSegments unforced;
    /** The hint writer, whose daemon {@link #close} stops. */
    public final HintWriter hints;
    /** Where puts and batches are refused: none until a test sets one. */
    public final WriteLimit limit = new WriteLimit();
    /** The writers' lock. */
    public final WriteProtocol protocol = new WriteProtocol();
    /** The only code that changes {@link #keyDir}. */
    public final KeyDirWriter keys;
    /** The batch seqlock shared by the log writer and the reader. */
    public final BatchFence fence = new BatchFence();
    /** Segment size the log writer rolls over at. */
    private final long segmentSize;
    /** The log writer, once {@link #open} made one. */
    private LogWriter log;
    /** The reader of what {@link #keyDir} points at. */
    private RecordReader reader;

    private EngineParts(Path dir, SegmentBackend backend, long segmentSize, boolean readOnly) {
        this.segmentSize = segmentSize;
        this.files = new StoreDirectory(dir, backend);
        this.status = new StoreStatus(dir, readOnly);
        this.keyDir = new KeyDir(0);
        this.table = new SegmentTable(files, segmentSize);
        this.unforced = new UnforcedSegments(table, gate, backend);
        this.hints = new HintWriter(files, status, table, gate);
        this.keys = new KeyDirWriter(keyDir, table, dir, protocol, false);
    }

    /** The parts over {@code dir} (created if absent), nothing opened yet. */
    public static EngineParts of(Path dir, SegmentBackend backend, long segmentSize, boolean readOnly) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new EngineParts(dir, backend, segmentSize, readOnly);
    }

    /** Runs recovery over the directory, as open does, and keeps a reader; once. */
    public Recovery.Recovered recover() {
        Recovery.Recovered found = new Recovery(files, table, keyDir, keys, unforced, segmentSize, 0, status.readOnly(), false).run();
        reader = new RecordReader(keyDir, table, gate, fence, status, null, CLOCK, false);
        return found;
    }

    /** Recovers the directory and returns a log writer that goes on from what recovery found. */
    public LogWriter open() {
        Recovery.Recovered found = recover();
        log = new LogWriter(files, status, table, protocol, keys, fence, unforced, hints, CLOCK, segmentSize, false,
                found.active(), found.nextId(), limit);
        reader = new RecordReader(keyDir, table, gate, fence, status, new GroupCommit(log, status, files.path()), CLOCK, false);
        return log;
    }

    /** The value of {@code key} as a reader sees it, null when absent or deleted. */
    public byte[] get(String key) {
        return reader.get(Bytes.b(key), true);
    }

    /** Every live key and its value, as iteration sees them. */
    public Map<String, byte[]> contents() {
        Map<String, byte[]> out = new HashMap<>();
        reader.forEach((k, v) -> out.put(new String(k, StandardCharsets.UTF_8), v), true);
        return out;
    }

    /** One record of a data file: where it starts, its length, and its key. */
    public record Rec(long offset, int length, String key) {
    }

    /** The records a scan of {@code seg} up to {@code end} accepts, in file order. */
    public static List<Rec> records(Segment seg, long end) {
        List<Rec> out = new ArrayList<>();
        new SegmentScanner(seg.reader(), seg.file(), end, seg.salt()).scan(RecordFormat.FILE_HEADER_SIZE, (offset, buf, off, len) -> {
            int flags = RecordFormat.flags(buf, off);
            int keyOff = off + RecordFormat.keyOffset(flags);
            out.add(new Rec(offset, len, new String(buf, keyOff, RecordFormat.keyLength(buf, off), StandardCharsets.UTF_8)));
        });
        return out;
    }

    /**
     * Closes as a store's close does, less the forces and the last hints: marks the store closed,
     * stops the hint writer, cuts the active segment at the end of its records, closes every segment.
     */
    @Override
    public void close() {
        if (log != null) {
            log.markClosed();
        } else {
            status.markClosed();
        }
        hints.stop();
        if (log != null && log.active() != null && !status.failed()) {
            log.cutActive();
        }
        for (Segment seg : table.inOrder()) {
            seg.close();
        }
    }
}
