package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentScanner;
import io.caskbench.bitcask.segment.SegmentTable;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Threading: the opening thread loads; afterwards {@link #origin} may be read by any thread, as the
 * map no longer changes.
 *
 * <p>What a salvage opens instead of {@link Recovery}: a read-only store over every record that
 * checks on its own. Every data file is scanned (hints are not read, so none that disagrees with its
 * data can hide a record), and besides the records open applies it applies the members of damaged
 * batches and the records in kept tails (see {@link KeptTail}), in log order: a kept tail's records
 * count as written just before those its segment now holds from the tail's offset on. For each key
 * whose newest applied record is such a member, it notes where that came from. Open never applies
 * these, so a salvage is for reading a damaged store out, never for writing to it.
 */
public final class SalvageLoad {

    /**
     * Where a record came from that open does not apply.
     *
     * @param file         the data file, or the kept tail, that holds it
     * @param offset       where its batch starts: the batch header when intact, else the first bad byte
     * @param headerIntact true when the batch's header checks
     */
    public record Origin(Path file, long offset, boolean headerIntact) {
    }

    /** Keys whose newest applied record is a salvaged one, and where it came from; the opening thread, then read-only. */
    private final Map<ByteBuffer, Origin> origins = new HashMap<>();
    /** Records applied that open would not apply; the opening thread. */
    private long salvaged;

    /** Where the live record of {@code key} came from, or null when open applies it too. */
    public Origin origin(byte[] key) {
        return origins.get(ByteBuffer.wrap(key));
    }

    /** How many records were applied that open does not apply, overwritten ones included. */
    public long salvaged() {
        return salvaged;
    }

    /**
     * Loads every segment of {@code dir}, and its kept tails, into {@code table} and through
     * {@code keys}; returns what a read-only open returns.
     */
    public Recovery.Recovered run(StoreDirectory dir, SegmentTable table, KeyDirWriter keys) {
        List<Long> ids = SegmentFiles.dataIds(dir.path());
        Map<Long, List<KeptTail>> tails = new TreeMap<>();
        for (KeptTail t : KeptTail.list(dir.path())) {
            tails.computeIfAbsent(idOf(t.data()), id -> new ArrayList<>()).add(t);
        }
        long nextId = ids.isEmpty() ? 1 : ids.get(ids.size() - 1) + 1;
        long[] tailIds = {SegmentFiles.MAX_ID}; // a tail is no segment of the store: ids no file has
        TreeSet<Long> order = new TreeSet<>(ids);
        order.addAll(tails.keySet());
        for (long id : order) {
            List<KeptTail> kept = new ArrayList<>(tails.getOrDefault(id, List.of()));
            kept.sort((a, b) -> a.offset() != b.offset() ? Long.compare(a.offset(), b.offset())
                    : a.file().getFileName().toString().compareTo(b.file().getFileName().toString()));
            load(dir, table, keys, id, ids.contains(id), kept, tailIds);
        }
        return new Recovery.Recovered(null, nextId);
    }

    /** Loads segment {@code id}, when its data file exists, with its tails in their places. */
    private void load(StoreDirectory dir, SegmentTable table, KeyDirWriter keys, long id, boolean hasData, List<KeptTail> kept,
                      long[] tailIds) {
        Segment seg = hasData ? register(dir, table, id, SegmentFiles.dataFile(dir.path(), id)) : null;
        long from = RecordFormat.FILE_HEADER_SIZE;
        for (KeptTail t : kept) {
            if (seg != null) {
                long to = Math.max(from, Math.min(t.offset(), seg.end()));
                scan(seg, from, to, keys, false);
                from = to;
            }
            KeptTail.Opened opened = t.open(dir.backend());
            int slot = table.allocateSlot();
            long size = opened.reader().size();
            Segment tail = new Segment(tailIds[0]--, opened.salt(), slot, t.file(), opened.reader(), null, size);
            table.register(tail);
            scan(tail, t.offset(), size, keys, true);
        }
        if (seg != null) {
            scan(seg, from, seg.end(), keys, false);
        }
    }

    /** Registers the data file {@code file}, or returns null when its header cannot be read. */
    private static Segment register(StoreDirectory dir, SegmentTable table, long id, Path file) {
        SegmentReader reader = dir.backend().openReadOnly(file);
        try {
            long length = reader.size();
            long salt = Recovery.readSalt(reader, file, id, length);
            if (salt == SegmentTable.NO_SALT) {
                reader.close();
                return null;
            }
            Segment seg = new Segment(id, salt, table.allocateSlot(), file, reader, null, length);
            table.register(seg);
            return seg;
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    /** Applies the records of {@code seg} in {@code [from, to)}; with {@code kept}, every one counts as salvaged. */
    private void scan(Segment seg, long from, long to, KeyDirWriter keys, boolean kept) {
        if (from >= to) {
            return;
        }
        new SegmentScanner(seg.reader(), seg.file(), to, seg.salt()).scan(from,
                (offset, buf, off, len) -> apply(seg, offset, buf, off, len, keys, kept ? new Origin(seg.file(), offset, true) : null),
                (unit, unitEnd, headerIntact, offset, buf, off, len) ->
                        apply(seg, offset, buf, off, len, keys, new Origin(seg.file(), unit, headerIntact)));
    }

    private void apply(Segment seg, long offset, byte[] buf, int off, int len, KeyDirWriter keys, Origin origin) {
        int flags = RecordFormat.flags(buf, off);
        int keyOff = off + RecordFormat.keyOffset(flags);
        int keyLength = RecordFormat.keyLength(buf, off);
        keys.index(seg, offset, len, flags, buf, keyOff, keyLength, KeyHash.hash(buf, keyOff, keyLength));
        if (origin != null) {
            salvaged++;
        }
        if (origin != null && (flags & RecordFormat.TOMBSTONE) == 0) {
            origins.put(ByteBuffer.wrap(Arrays.copyOfRange(buf, keyOff, keyOff + keyLength)), origin);
        } else if (!origins.isEmpty()) {
            origins.remove(ByteBuffer.wrap(buf, keyOff, keyLength));
        }
    }

    private static long idOf(Path data) {
        String name = data.getFileName().toString();
        try {
            return Long.parseLong(name.substring(0, name.length() - SegmentFiles.DATA_SUFFIX.length()));
        } catch (NumberFormatException e) {
            throw new BitCaskException(data + " is not a data file name of this store", e);
        }
    }
}
