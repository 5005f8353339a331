package io.caskbench.bitcask.index;

import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Puts publishing into the key directory from many threads at once, in an order that differs from the
 * log's: for every key, the slot must end at the record latest in the log, no key may take two slots,
 * and every record must be accounted for exactly once (current, replaced, or dead from the start).
 *
 * <p>Seeded: the seed is printed on failure ({@code -Dcaskbench.seed} replays the records and their
 * assignment to threads; thread timing is not replayable).
 */
class KeyDirPublishTest {

    private static final int THREADS = 4;
    private static final int RECORDS = 40_000;
    private static final int LENGTH_BASE = 40;

    /** A record of the test's log: its key, at a unique offset, with a length drawn for it. */
    private record Rec(int key, long location, int length) {
    }

    @Test
    void theRecordLatestInTheLogWinsWhateverTheOrderOfPublication() throws Exception {
        long seed = Seeds.base();
        run(seed, 8, false);
    }

    /** Every key with the same hash: each publication must walk past the other keys' slots by the key check. */
    @Test
    void keysSharingOneHashStillTakeOneSlotEach() throws Exception {
        long seed = Seeds.base() + 1;
        run(seed, 5, true);
    }

    /**
     * Keys counted by publishing puts and by the exclusive writer are kept apart, and a rebuild folds
     * them together. Here keys are only ever added, so a lock-free {@code size()} racing the rebuilds
     * must never go down: it must read the counts before a rebuild or after it, never a mix of both.
     */
    @Test
    void sizeNeverMixesTheCountsBeforeAndAfterARebuild() throws Exception {
        Map<Long, byte[]> records = new HashMap<>();
        KeyDir.KeyCheck check = (location, length, key, keyOff, keyLength) -> {
            byte[] k = records.get(location);
            return k != null && Arrays.equals(k, 0, k.length, key, keyOff, keyOff + keyLength);
        };
        KeyDir.LogOrder order = (a, b) -> Location.offset(a) > Location.offset(b);
        KeyDir kd = new KeyDir(0);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            long last = 0;
            while (!stop.get()) {
                long size = kd.size();
                if (size < last) {
                    wrong.compareAndSet(null, size + " after " + last);
                }
                last = size;
            }
        });
        reader.start();
        long offset = 64;
        long deadline = System.nanoTime() + 300_000_000L;
        for (int n = 0; System.nanoTime() < deadline && wrong.get() == null; n++) {
            byte[] key = ("key-" + n).getBytes(StandardCharsets.UTF_8);
            long loc = Location.of(1, offset);
            offset += 40;
            records.put(loc, key);
            assertThat(kd.makeRoom(1)).isTrue(); // as the log writer does before it writes a put
            kd.publish(KeyHash.hash(key), key, 0, key.length, loc, 40, check, order, (l, len) -> { });
            kd.dropDeletedAnd(slot -> false);
        }
        stop.set(true);
        reader.join();
        assertThat(wrong.get()).as("size read during rebuilds").isNull();
    }

    private void run(long seed, int keyCount, boolean oneHash) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        byte[][] keys = new byte[keyCount][];
        for (int k = 0; k < keyCount; k++) {
            keys[k] = ("key-" + k).getBytes(StandardCharsets.UTF_8);
        }
        Rec[] log = new Rec[RECORDS];
        Map<Long, Rec> byLocation = new HashMap<>();
        long offset = 64;
        for (int r = 0; r < RECORDS; r++) {
            int length = LENGTH_BASE + random.nextInt(60);
            log[r] = new Rec(random.nextInt(keyCount), Location.of(1, offset), length);
            byLocation.put(log[r].location(), log[r]);
            offset += length;
        }
        // Deal the log out to the threads in turn, each thread's share shuffled within windows of 16:
        // publications then cross each other both between threads and within one.
        List<List<Rec>> shares = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            shares.add(new ArrayList<>());
        }
        for (int r = 0; r < RECORDS; r++) {
            shares.get(r % THREADS).add(log[r]);
        }
        for (List<Rec> share : shares) {
            for (int from = 0; from < share.size(); from += 16) {
                int to = Math.min(share.size(), from + 16);
                for (int i = to - 1; i > from; i--) {
                    int j = from + random.nextInt(i - from + 1);
                    Rec tmp = share.get(i);
                    share.set(i, share.get(j));
                    share.set(j, tmp);
                }
            }
        }
        KeyDir.KeyCheck check = (location, length, key, keyOff, keyLength) -> {
            Rec rec = byLocation.get(location);
            byte[] k = keys[rec.key()];
            return length == rec.length() && Arrays.equals(k, 0, k.length, key, keyOff, keyOff + keyLength);
        };
        KeyDir.LogOrder order = (a, b) -> Location.offset(a) > Location.offset(b);
        Set<Long> replaced = ConcurrentHashMap.newKeySet();
        Set<Long> deadAtOnce = ConcurrentHashMap.newKeySet();
        AtomicReference<String> doubleReplace = new AtomicReference<>();
        KeyDir.Replaced onReplaced = (location, length) -> {
            if (!replaced.add(location) || byLocation.get(location).length() != length) {
                doubleReplace.compareAndSet(null, "replaced twice or with a wrong length: " + location);
            }
        };
        KeyDir kd = new KeyDir(keyCount);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (List<Rec> share : shares) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    for (Rec rec : share) {
                        byte[] k = keys[rec.key()];
                        int hash = oneHash ? 0x5eed : KeyHash.hash(k);
                        long previous = kd.publish(hash, k, 0, k.length, rec.location(), rec.length(), check, order, onReplaced);
                        if (previous == KeyDir.BUSY) {
                            deadAtOnce.add(rec.location());
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            threads.add(t);
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failure.get()).as("seed %d", seed).isNull();
        assertThat(doubleReplace.get()).as("seed %d", seed).isNull();

        Map<Integer, Rec> newest = new HashMap<>();
        for (Rec rec : log) {
            newest.put(rec.key(), rec); // the log is in order, so the last one stays
        }
        SlotTable t = kd.table();
        Set<Long> current = new HashSet<>();
        Set<Integer> keysSeen = new HashSet<>();
        for (int i = 0; i < t.capacity(); i++) {
            long loc = t.location(i);
            if (loc == 0) {
                continue;
            }
            Rec rec = byLocation.get(loc);
            assertThat(keysSeen.add(rec.key())).as("seed %d: key %d holds two slots", seed, rec.key()).isTrue();
            assertThat(rec).as("seed %d: key %d", seed, rec.key()).isEqualTo(newest.get(rec.key()));
            assertThat(t.length(i)).as("seed %d: length of key %d", seed, rec.key()).isEqualTo(rec.length());
            current.add(loc);
        }
        assertThat(keysSeen).as("seed %d", seed).hasSize(newest.size());
        assertThat(kd.size()).as("seed %d: live keys", seed).isEqualTo(newest.size());
        // Each record is exactly one of: current, replaced by a later one, or refused as older.
        for (Rec rec : log) {
            int roles = (current.contains(rec.location()) ? 1 : 0) + (replaced.contains(rec.location()) ? 1 : 0)
                    + (deadAtOnce.contains(rec.location()) ? 1 : 0);
            assertThat(roles).as("seed %d: roles of the record at %d", seed, rec.location()).isEqualTo(1);
        }
        assertThat(kd.freeSlots()).as("seed %d: slots left", seed).isEqualTo((long) (kd.table().capacity() * 0.75) - newest.size());
    }
}
