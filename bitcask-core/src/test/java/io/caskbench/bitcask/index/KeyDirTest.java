package io.caskbench.bitcask.index;

import io.caskbench.bitcask.format.KeyHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The key directory on its own: the slot update protocol, sizing, and its limit. */
class KeyDirTest {

    /** Records by location, standing in for the segments a real check reads. */
    private final Map<Long, byte[]> records = new HashMap<>();
    private final KeyDir.KeyCheck check = (location, length, key, keyOff, keyLength) -> {
        byte[] k = records.get(location);
        return k != null && Arrays.equals(k, 0, k.length, key, keyOff, keyOff + keyLength);
    };
    private long nextOffset = 64;
    /** What the directory reported replaced, as "location:length". */
    private final List<String> replaced = new ArrayList<>();
    private final KeyDir.Replaced onReplaced = (location, length) -> replaced.add(location + ":" + length);

    private long put(KeyDir kd, String key, int length) {
        return put(kd, 1, key, length);
    }

    private long put(KeyDir kd, int segmentSlot, String key, int length) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        long loc = Location.of(segmentSlot, nextOffset);
        nextOffset += length;
        records.put(loc, k);
        kd.put(KeyHash.hash(k), k, 0, k.length, loc, length, check, onReplaced);
        return loc;
    }

    private long delete(KeyDir kd, String key) {
        return delete(kd, 1, key);
    }

    private long delete(KeyDir kd, int segmentSlot, String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        long loc = Location.of(segmentSlot, nextOffset);
        nextOffset += 30;
        records.put(loc, k);
        kd.delete(KeyHash.hash(k), k, 0, k.length, loc, 30, check, onReplaced);
        return loc;
    }

    private static int slotOf(SlotTable t, long location) {
        for (int i = 0; i < t.capacity(); i++) {
            if (t.location(i) == location) {
                return i;
            }
        }
        throw new AssertionError("no slot holds " + location);
    }

    /**
     * A merge finds its inputs' live records in one pass: every key whose record lies in a segment
     * asked for, with its hash and length, and nothing else: no tombstone, no record of another
     * segment, no record a later put replaced; through the rebuilds of a growing table.
     */
    @Test
    void forEachLiveHandsOverTheLiveRecordsOfTheSegmentsAskedForAndNothingElse() {
        KeyDir kd = new KeyDir(0);
        Map<Long, String> expected = new HashMap<>();
        for (int n = 0; n < 5000; n++) {
            int segment = 2 + n % 3;
            long loc = put(kd, segment, "k" + n, 40 + n % 7);
            if (segment != 4) {
                expected.put(loc, KeyHash.hash(("k" + n).getBytes(StandardCharsets.UTF_8)) + ":" + (40 + n % 7));
            }
        }
        for (int n = 0; n < 5000; n += 5) {
            byte[] k = ("k" + n).getBytes(StandardCharsets.UTF_8);
            expected.remove(kd.locate(KeyHash.hash(k), k, 0, k.length, check));
            if (n % 2 == 0) {
                delete(kd, 2, "k" + n); // a tombstone in a segment asked for
            } else {
                put(kd, 4, "k" + n, 50);
            }
        }
        Map<Long, String> found = new HashMap<>();
        kd.forEachLive(slot -> slot == 2 || slot == 3, (hash, location, length) -> {
            assertThat(found.put(location, hash + ":" + length)).as("handed over twice").isNull();
        });
        assertThat(found).isEqualTo(expected);
    }

    /**
     * A writer that updates a taken slot stores two words. A reader that reads the location, then
     * the length, can pair the old location with the new length; asked whether the pair it read
     * is still the slot's, the slot must say no, so the reader retries instead of reporting the
     * record at the old location as corrupt.
     */
    @Test
    void aReaderNeverTakesAHalfUpdatedSlotForAStableOne() {
        KeyDir kd = new KeyDir(0);
        long loc = put(kd, "key", 50);
        SlotTable t = kd.table();
        int i = slotOf(t, loc);
        long seenLocation = t.location(i);
        int hash = t.hash(i);
        t.beginUpdate(i, ((long) hash << 32) | 60); // the writer, descheduled between its stores
        int seenLength = t.length(i);
        assertThat(seenLength).isEqualTo(60);
        assertThat(t.unchanged(i, seenLocation, seenLength)).isFalse();
        long next = Location.of(1, 4096);
        t.publish(i, next);
        assertThat(t.location(i)).isEqualTo(next);
        assertThat(t.unchanged(i, next, 60)).isTrue();
    }

    /**
     * A put or a delete that replaces a live record reports that record's location and its own
     * length, not the new record's; one that replaces nothing live (a new key, a tombstone) reports
     * nothing. The writer makes exactly those bytes dead in their segment.
     */
    @Test
    void aChangeReportsTheRecordItReplacedWithItsLength() {
        KeyDir kd = new KeyDir(0);
        long first = put(kd, "key", 50);
        assertThat(replaced).as("a new key replaces nothing").isEmpty();
        long second = put(kd, "key", 70);
        assertThat(replaced).containsExactly(first + ":50");
        delete(kd, "key");
        assertThat(replaced).containsExactly(first + ":50", second + ":70");
        delete(kd, "key");
        put(kd, "key", 90);
        assertThat(replaced).as("a tombstone is not a live record").containsExactly(first + ":50", second + ":70");
        delete(kd, "absent");
        assertThat(replaced).hasSize(2);
    }

    @Test
    void putAndDeleteChurnDoesNotGrowTheTable() {
        KeyDir kd = new KeyDir(0);
        int start = kd.table().capacity();
        for (int i = 0; i < 100_000; i++) {
            put(kd, "key" + i, 40);
            if (i >= 10) {
                delete(kd, "key" + (i - 10));
            }
        }
        assertThat(kd.size()).isEqualTo(10);
        assertThat(kd.table().capacity()).isEqualTo(start);
    }

    @Test
    void theTableShrinksWhenMostKeysAreGone() {
        KeyDir kd = new KeyDir(0);
        for (int i = 0; i < 100_000; i++) {
            put(kd, "key" + i, 40);
        }
        int grown = kd.table().capacity();
        for (int i = 10; i < 100_000; i++) {
            delete(kd, "key" + i);
        }
        kd.dropDeletedAnd(slot -> false);
        assertThat(kd.size()).isEqualTo(10);
        assertThat(kd.table().capacity()).isLessThan(grown / 64);
    }

    @Test
    void aFullDirectorySaysSoBeforeTheRecordIsWritten() {
        KeyDir kd = new KeyDir(0, 1024);
        for (int i = 0; i < 768; i++) {
            assertThat(kd.makeRoom(1)).isTrue();
            put(kd, "key" + i, 40);
        }
        assertThat(kd.makeRoom(1)).isFalse();
        put(kd, "key5", 41); // an existing key still fits
        assertThatThrownBy(() -> put(kd, "one too many", 40)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new KeyDir(KeyDir.MAX_KEYS + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Under ALWAYS a rebuild keeps the tombstones not yet forced, so that a reader who finds one can wait
     * for it. A rebuild sized by the live keys alone has no room for them: after 5000 deletes, with no
     * live key left, it built the smallest table and looked forever for a free slot for the 1025th
     * tombstone, holding the write lock.
     */
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang must fail, not stall the build
    void aRebuildMakesRoomForTheTombstonesItKeeps() {
        KeyDir kd = new KeyDir(0);
        int keys = 5000;
        for (int k = 0; k < keys; k++) {
            put(kd, "key" + k, 40);
        }
        for (int k = 0; k < keys; k++) {
            delete(kd, "key" + k);
        }
        kd.keepDeleted(loc -> true); // none of them forced yet
        kd.dropDeletedAnd(slot -> false);
        assertThat(kd.size()).isZero();
        assertThat(kd.freeSlots()).isPositive();
        long tombstone = kd.locate(KeyHash.hash(bytes("key7")), bytes("key7"), 0, 4, check);
        assertThat(Location.isDeleted(tombstone)).as("key7's tombstone is kept").isTrue();
    }

    /**
     * Under ALWAYS a rebuild keeps the tombstones not yet forced, and the group commit forces without
     * the write lock, so a tombstone may become durable while the rebuild runs: kept by the pass that
     * sizes the new table, dropped by the pass that copies. The live count must come from what was
     * copied; taken as the first pass's entries less the tombstones copied, it counted every such
     * tombstone as a live key.
     */
    @Test
    void aTombstoneForcedDuringARebuildIsNotCountedAsALiveKey() {
        KeyDir kd = new KeyDir(0);
        for (int k = 0; k < 10; k++) {
            put(kd, "key" + k, 40);
        }
        for (int k = 0; k < 5; k++) {
            delete(kd, "key" + k);
        }
        int[] asked = new int[1];
        kd.keepDeleted(loc -> asked[0]++ < 5); // not durable while the table is sized, durable by the copy
        kd.dropDeletedAnd(slot -> false);
        assertThat(asked[0]).as("both passes asked").isEqualTo(10);
        assertThat(kd.size()).isEqualTo(5);
        assertThat(kd.freeSlots()).isEqualTo(kd.capacity() * 3L / 4 - 5);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
