package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.segment.RecordPlace;
import io.caskbench.bitcask.segment.Segment;

import java.util.Arrays;
import java.util.List;

/**
 * Threading: the merging thread only.
 *
 * <p>The live records of a merge's inputs, found in the key directory: one pass over it
 * ({@link KeyDir#forEachLive}) collects the place ({@link RecordPlace}) of every record a key still
 * points at in an input, input by input, then each input's places are sorted into file order. The
 * copy then reads those records and nothing else. Entries into sealed segments only ever leave
 * them (the seal waited for every put still publishing, and only a merge, under the merge lock,
 * moves a key to another segment), so the pass finds every record still live when the copy reads
 * it, and perhaps some overwritten since, which the copy checks again.
 *
 * <p>Why the key directory and not the inputs' hint files: the pass is exact and always there, where
 * a hint may be missing (a segment sealed by the merge itself has none yet) or stale, and a hint
 * lists every record, dead ones included (nine in ten under a sustained overwrite), each to be read
 * from the file and looked up in the directory, a cache miss apiece. The pass costs a sequential
 * read of the table, 16 bytes a slot, whatever the inputs' size; it holds 8 bytes per live record
 * of the inputs (twice that while an input's array grows), not their hashes: the copy hashes each
 * key it reads anyway.
 */
final class LiveRecords {

    /** Places of each input's live records, in file order once collected; merging thread. */
    private final long[][] places;
    /** Places used in each of {@code places}; merging thread. */
    private final int[] counts;

    private LiveRecords(int inputs) {
        this.places = new long[inputs][];
        this.counts = new int[inputs];
        Arrays.fill(places, new long[0]);
    }

    /** The live records of {@code inputs}, as {@code keyDir} has them now. */
    static LiveRecords of(KeyDir keyDir, List<Segment> inputs) {
        LiveRecords live = new LiveRecords(inputs.size());
        int maxSlot = inputs.stream().mapToInt(Segment::slot).max().orElse(-1);
        int[] inputOfSlot = new int[maxSlot + 1];
        Arrays.fill(inputOfSlot, -1);
        for (int i = 0; i < inputs.size(); i++) {
            inputOfSlot[inputs.get(i).slot()] = i;
        }
        keyDir.forEachLive(slot -> slot < inputOfSlot.length && inputOfSlot[slot] >= 0,
                (hash, location, length) -> live.add(inputOfSlot[Location.slot(location)], Location.offset(location), length));
        for (int i = 0; i < inputs.size(); i++) {
            Arrays.sort(live.places[i], 0, live.counts[i]);
        }
        return live;
    }

    private void add(int input, long offset, int length) {
        if (counts[input] == places[input].length) {
            places[input] = Arrays.copyOf(places[input], Math.max(16, counts[input] * 2));
        }
        places[input][counts[input]++] = RecordPlace.of(offset, length);
    }

    /** Places of input {@code input}'s live records, in file order: the first {@link #count} of the array. */
    long[] places(int input) {
        return places[input];
    }

    /** Live records of input {@code input}. */
    int count(int input) {
        return counts[input];
    }
}
