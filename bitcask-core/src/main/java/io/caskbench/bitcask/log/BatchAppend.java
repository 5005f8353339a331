package io.caskbench.bitcask.log;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.segment.Segment;

/**
 * Threading: the writer thread, inside {@link WriteProtocol#exclusive} (under the write lock, no put
 * publishing).
 *
 * <p>A batch appended as one unit: encodes a batch header and its members into one buffer, each
 * sealed to its place in the segment, so that one write puts all of it on disk; then, once it is
 * written, points the key directory at every member inside the {@link BatchFence}, so that readers
 * see all of its keys or none. The log writer reserves the room and writes the buffer.
 */
final class BatchAppend {

    /** Final, safe everywhere. */
    private final KeyDirWriter keys;
    /** Final, safe everywhere. */
    private final BatchFence fence;

    /** Appends whose members {@code keys} indexes inside {@code fence}. */
    BatchAppend(KeyDirWriter keys, BatchFence fence) {
        this.keys = keys;
        this.fence = fence;
    }

    /**
     * Encodes {@code ops}, {@code total} bytes with the header, into {@code buf} for {@code offset}
     * of {@code seg}: each member sealed to its own offset, the header's CRC over all of them.
     */
    static void encode(LogWriter.Batch ops, int total, byte[] buf, Segment seg, long offset, long now) {
        int headerLen = RecordFormat.BATCH_HEADER_SIZE;
        int p = headerLen;
        for (int i = 0; i < ops.size(); i++) {
            long ttl = ops.ttlMillis(i);
            int flags = RecordFormat.IN_BATCH | (ops.value(i) == null ? RecordFormat.TOMBSTONE : (ttl > 0 ? RecordFormat.EXPIRES : 0));
            int len = RecordFormat.encode(buf, p, now, flags, ttl > 0 ? LogWriter.expiresAt(now, ttl) : 0L, ops.key(i), ops.value(i));
            RecordFormat.seal(buf, p, seg.salt(), offset + p);
            p += len;
        }
        RecordFormat.encodeBatchHeader(buf, 0, now, ops.size(), total - headerLen, RecordFormat.crc(buf, headerLen, total - headerLen));
        RecordFormat.seal(buf, 0, seg.salt(), offset);
    }

    /**
     * Points the key directory at every member of the batch that {@link #encode} put in {@code buf}
     * and that is now written at {@code offset} of {@code seg}.
     */
    void publish(LogWriter.Batch ops, Segment seg, long offset, byte[] buf) {
        int count = ops.size();
        long[] offsets = new long[count];
        int[] lengths = new int[count];
        int[] flags = new int[count];
        byte[][] members = new byte[count][];
        int p = RecordFormat.BATCH_HEADER_SIZE;
        for (int i = 0; i < count; i++) {
            members[i] = ops.key(i);
            flags[i] = RecordFormat.flags(buf, p);
            lengths[i] = RecordFormat.recordLength(flags[i], members[i].length, RecordFormat.valueLength(buf, p));
            offsets[i] = offset + p;
            p += lengths[i];
        }
        // Readers never see half a batch: they repeat a read that overlapped this publication, and
        // the publication makes every read that can fail before it changes the first entry.
        fence.open();
        try {
            keys.indexBatch(seg, offsets, lengths, flags, members);
        } finally {
            fence.close();
        }
    }
}
