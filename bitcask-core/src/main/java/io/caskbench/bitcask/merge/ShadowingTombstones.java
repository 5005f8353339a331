package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.Segment;

import java.util.Arrays;
import java.util.List;

/**
 * Threading: the merging thread only.
 *
 * <p>The tombstones a partial merge must carry over. A tombstone shadows every older record of its
 * key; a merge may drop it only when no segment older than the tombstone's survives the merge, as
 * any such segment could hold a value the tombstone hides. Otherwise the merge copies it, unless the
 * key has a newer value by then (a copy placed after that value would delete it). Which keys have a
 * value is read under the log writer's lock once the scan is done, in short turns; a write made later
 * lands in a segment after the merge's outputs, so it still wins over the copy.
 */
final class ShadowingTombstones {

    /** Tombstones checked per turn of the writer's lock: short enough that puts wait little. */
    private static final int PER_TURN = 256;

    /** Input index and offset of each tombstone found, packed as {@code index << 40 | offset}; merging thread. */
    private long[] places = new long[64];
    /** Record length of each; merging thread. */
    private int[] lengths = new int[64];
    /** Tombstones found; merging thread. */
    private int count;

    /** Notes a tombstone at {@code offset} of input {@code index}, {@code length} bytes long. */
    void add(int index, long offset, int length) {
        if (count == places.length) {
            places = Arrays.copyOf(places, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        places[count] = ((long) index << 40) | offset;
        lengths[count] = length;
        count++;
    }

    /** Tombstones noted. */
    int size() {
        return count;
    }

    /** Receives a tombstone the merge must keep. */
    interface Keeper {
        /** Copies the tombstone record in {@code buf[0, length)}, read from {@code in} at {@code offset}. */
        void keep(Segment in, long offset, byte[] buf, int length);
    }

    /**
     * Hands {@code keeper} each noted tombstone whose key has no value now, reading them again from
     * {@code inputs}; the key check runs as the log's one writer.
     */
    void keepShadowing(List<Segment> inputs, LogWriter log, KeyDirWriter keys, Keeper keeper) {
        boolean[] keep = new boolean[count];
        byte[] buf = new byte[RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + RecordFormat.MAX_KEY_LENGTH];
        for (int from = 0; from < count; from += PER_TURN) {
            int start = from;
            int end = Math.min(count, from + PER_TURN);
            log.asWriter(() -> {
                for (int i = start; i < end; i++) {
                    read(inputs, i, buf);
                    int keyLength = RecordFormat.keyLength(buf, 0);
                    int keyOff = RecordFormat.keyOffset(RecordFormat.flags(buf, 0));
                    byte[] key = Arrays.copyOfRange(buf, keyOff, keyOff + keyLength);
                    long now = keys.currentLocation(key, KeyHash.hash(key));
                    keep[i] = now == 0 || Location.isDeleted(now);
                }
                return 0;
            });
        }
        for (int i = 0; i < count; i++) {
            if (keep[i]) {
                read(inputs, i, buf);
                keeper.keep(inputs.get((int) (places[i] >>> 40)), places[i] & ((1L << 40) - 1), buf, lengths[i]);
            }
        }
    }

    private void read(List<Segment> inputs, int i, byte[] buf) {
        Segment in = inputs.get((int) (places[i] >>> 40));
        in.reader().read(places[i] & ((1L << 40) - 1), buf, 0, lengths[i]);
    }
}
