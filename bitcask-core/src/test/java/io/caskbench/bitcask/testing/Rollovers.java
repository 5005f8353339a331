package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskStats;

import java.util.function.IntConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/** Writes until the active segment rolls over: for tests that build a store segment by segment. */
public final class Rollovers {

    private Rollovers() {
    }

    /** Id of the store's active segment. */
    public static long activeId(BitCask db) {
        return db.stats().segments().stream().filter(BitCaskStats.SegmentStats::active).findFirst().orElseThrow().id();
    }

    /**
     * Calls {@code put} with 0, 1, ... until the active segment rolls over, at most {@code limit}
     * times; returns how many calls were made. The last call's record lies in the new segment.
     */
    public static int rollOver(BitCask db, IntConsumer put, int limit) {
        long id = activeId(db);
        int i = 0;
        while (activeId(db) == id) {
            assertThat(i).as("puts without a rollover").isLessThan(limit);
            put.accept(i);
            i++;
        }
        return i;
    }
}
