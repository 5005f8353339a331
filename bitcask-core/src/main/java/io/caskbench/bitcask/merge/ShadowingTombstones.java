package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.Segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Threading: the merging thread only.
 *
 * <p>The tombstones a partial merge must carry over. A tombstone shadows every older record of its
 * key; a merge may drop it only when no segment older than the tombstone's survives the merge, as
 * any such segment could hold a value the tombstone hides. Otherwise the merge copies it, unless the
 * key has a newer value by then (a copy placed after that value would delete it).
 *
 * <p>The key directory does not know them all (it forgets a deleted key at its next rebuild, and
 * holds one tombstone per key), so they come from each input's own list
 * ({@link Segment#tombstones()}), which the log writer and recovery keep. They are read in turns of
 * {@link #PER_TURN}, in file order, outside the log writer's lock; whether each key has a value is
 * then asked under the lock, one short turn at a time, and a write made later lands in a segment
 * after the merge's outputs, so it still wins over the copy.
 */
final class ShadowingTombstones {

    /** Tombstones checked per turn of the writer's lock: short enough that puts wait little. */
    private static final int PER_TURN = 256;
    /** What passing over a tombstone that fails its check costs, for the WARN. */
    private static final String LOST = "a value of its key in an older segment may be read again once the merge is done";

    private ShadowingTombstones() {
    }

    /** Receives a tombstone the merge must keep. */
    interface Keeper {
        /** Copies the tombstone record in {@code buf[0, length)}, read from {@code in} at {@code offset}. */
        void keep(Segment in, long offset, byte[] buf, int length);
    }

    /**
     * Hands {@code keeper} each tombstone of {@code inputs} whose key has no value now, reading them
     * through {@code reads}; {@code mayShadow} says which inputs have an older segment that survives
     * the merge. The key check runs as the log's one writer.
     */
    static void keepShadowing(List<Segment> inputs, boolean[] mayShadow, InputReads reads, LogWriter log, KeyDirWriter keys,
                              Keeper keeper) {
        List<byte[]> turn = new ArrayList<>(PER_TURN);
        List<Long> offsets = new ArrayList<>(PER_TURN);
        for (int n = 0; n < inputs.size(); n++) {
            if (!mayShadow[n]) {
                continue;
            }
            Segment in = inputs.get(n);
            long[] places = in.tombstones().inFileOrder();
            for (int from = 0; from < places.length; from += PER_TURN) {
                turn.clear();
                offsets.clear();
                reads.read(in, places, from, Math.min(places.length, from + PER_TURN), LOST, (offset, buf, off, len) -> {
                    if ((RecordFormat.flags(buf, off) & RecordFormat.TOMBSTONE) == 0) {
                        throw new IllegalStateException(in.file() + ": the record at offset " + offset + " is noted as a tombstone but is none");
                    }
                    turn.add(Arrays.copyOfRange(buf, off, off + len));
                    offsets.add(offset);
                });
                boolean[] keep = new boolean[turn.size()];
                log.asWriter(() -> {
                    for (int i = 0; i < keep.length; i++) {
                        byte[] t = turn.get(i);
                        int keyOff = RecordFormat.keyOffset(RecordFormat.flags(t, 0));
                        byte[] key = Arrays.copyOfRange(t, keyOff, keyOff + RecordFormat.keyLength(t, 0));
                        long now = keys.currentLocation(key, KeyHash.hash(key));
                        keep[i] = now == 0 || Location.isDeleted(now);
                    }
                    return 0;
                });
                for (int i = 0; i < keep.length; i++) {
                    if (keep[i]) {
                        keeper.keep(in, offsets.get(i), turn.get(i), turn.get(i).length);
                    }
                }
            }
        }
    }
}
