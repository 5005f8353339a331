package io.caskbench.bitcask.events;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.InternalOptions;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.events.ForceEvent;
import io.caskbench.bitcask.events.HintWriteEvent;
import io.caskbench.bitcask.events.MergeEvent;
import io.caskbench.bitcask.events.RolloverEvent;
import io.caskbench.bitcask.events.SlowGetEvent;
import io.caskbench.bitcask.events.SlowPutEvent;
import io.caskbench.bitcask.events.StoreOpenEvent;
import io.caskbench.bitcask.events.WriteRefusedEvent;
import io.caskbench.bitcask.events.WriteStallEvent;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.WatchingBackend;
import jdk.jfr.Event;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A store's life recorded with JFR: every event it emits, field by field, against what happened. */
class StoreEventsTest {

    private static final int KEYS = 2000;
    private static final int VALUE = 100;
    private static final int SEGMENT = 64 << 10;

    @TempDir
    Path tmp;

    private static byte[] key(int i) {
        return ("key-" + (10_000 + i)).getBytes(StandardCharsets.UTF_8);
    }

    private static Recording recordAll() {
        Recording r = new Recording();
        for (Class<? extends Event> c : List.of(StoreOpenEvent.class, RolloverEvent.class, ForceEvent.class,
                MergeEvent.class, HintWriteEvent.class, WriteRefusedEvent.class, WriteStallEvent.class, SlowGetEvent.class,
                SlowPutEvent.class)) {
            r.enable(c).withThreshold(Duration.ZERO).withoutStackTrace();
        }
        return r;
    }

    /** The events of {@code type} for the store in {@code dir}, in the order they were committed. */
    private static List<RecordedEvent> of(List<RecordedEvent> all, String type, Path dir) {
        return all.stream().filter(e -> e.getEventType().getName().equals("io.caskbench.bitcask." + type))
                .filter(e -> dir.toString().equals(e.getString("store")))
                .sorted((a, b) -> a.getStartTime().compareTo(b.getStartTime()))
                .collect(Collectors.toList());
    }

    private static List<RecordedEvent> stop(Recording r, Path file) throws Exception {
        r.stop();
        r.dump(file);
        r.close();
        return RecordingFile.readAllEvents(file);
    }

    @Test
    void aStoresLifeIsRecordedEventByEvent() throws Exception {
        Path dir = tmp.resolve("store").toAbsolutePath();
        int recordSize = BitCask.recordSize(key(0).length, VALUE);
        // No automatic merge: the counts below are those of this script's own rollovers, forces and merge.
        BitCaskOptions o = BitCaskOptions.builder().segmentSize(SEGMENT).autoMerge(false).build();
        MergeResult merged;
        long segmentsAtClose;
        List<Long> idsAtClose;
        Recording r = recordAll();
        r.start();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < KEYS; i++) {
                db.put(key(i), new byte[VALUE]);
            }
            db.sync();
            for (int i = 0; i < KEYS / 2; i++) {
                db.put(key(i), new byte[VALUE]); // half the first round is dead now
            }
            assertThat(db.get(key(0))).hasSize(VALUE);
            assertThat(db.get("absent")).isNull();
            merged = db.merge(MergeScope.ALL);
        }
        try (BitCask db = BitCask.open(dir, o)) {
            idsAtClose = SegmentFiles.dataIds(dir);
            segmentsAtClose = idsAtClose.size();
            assertThat(db.size()).isEqualTo(KEYS);
        }
        Path unhinted = SegmentFiles.hintFile(dir, idsAtClose.get(0));
        Files.delete(unhinted);
        long scanned = Files.size(SegmentFiles.dataFile(dir, idsAtClose.get(0))) - RecordFormat.FILE_HEADER_SIZE;
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.size()).isEqualTo(KEYS);
        }
        List<RecordedEvent> all = stop(r, tmp.resolve("life.jfr"));

        List<RecordedEvent> opens = of(all, "Open", dir);
        assertThat(opens).hasSize(3);
        assertThat(opens.get(0).getInt("segments")).as("a new store").isZero();
        assertThat(opens.get(0).getLong("keys")).isZero();
        assertThat(opens.get(0).getLong("bytesScanned")).isZero();
        assertThat(opens.get(1).getInt("segments")).isEqualTo((int) segmentsAtClose);
        assertThat(opens.get(1).getLong("keys")).isEqualTo(KEYS);
        assertThat(opens.get(1).getInt("hintsUsed")).as("close left a hint for every segment").isEqualTo((int) segmentsAtClose);
        assertThat(opens.get(1).getLong("bytesScanned")).isZero();
        assertThat(opens.get(2).getInt("hintsUsed")).isEqualTo((int) segmentsAtClose - 1);
        assertThat(opens.get(2).getLong("bytesScanned")).as("the segment without a hint").isEqualTo(scanned);
        assertThat(opens.get(2).getDuration()).isPositive();

        // 3000 puts of a fixed size in 64 KiB segments, and one rollover more when the merge seals the active one.
        List<RecordedEvent> rollovers = of(all, "Rollover", dir);
        int perSegment = (SEGMENT - RecordFormat.FILE_HEADER_SIZE) / recordSize;
        int fullSegments = (KEYS + KEYS / 2 - 1) / perSegment;
        assertThat(rollovers).hasSize(fullSegments + 1);
        for (int n = 0; n < rollovers.size(); n++) {
            RecordedEvent e = rollovers.get(n);
            assertThat(e.getLong("sealedSegment")).isEqualTo(n + 1L);
            assertThat(e.getBoolean("forced")).as("sync policy NONE").isFalse();
            if (n < fullSegments) {
                assertThat(e.getLong("newSegment")).isEqualTo(n + 2L);
                assertThat(e.getLong("sealedBytes")).isEqualTo(RecordFormat.FILE_HEADER_SIZE + (long) perSegment * recordSize);
            } else {
                assertThat(e.getLong("newSegment")).as("after the ids reserved for the merge's outputs").isGreaterThan(n + 2L);
            }
        }

        List<RecordedEvent> forces = of(all, "Force", dir);
        assertThat(forces).as("sync() forced once").hasSize(1 + 1); // and the merge once, before it deletes its inputs
        RecordedEvent sync = forces.get(0);
        assertThat(sync.getLong("bytesCovered")).isEqualTo((long) KEYS * recordSize);
        assertThat(sync.getLong("segment")).isEqualTo(KEYS / perSegment + 1L);
        assertThat(sync.getInt("waitersReleased")).as("one writer").isZero();
        assertThat(sync.getBoolean("succeeded")).isTrue();
        assertThat(forces.get(1).getLong("bytesCovered")).isEqualTo((long) (KEYS / 2) * recordSize);

        List<RecordedEvent> merges = of(all, "Merge", dir);
        assertThat(merges).hasSize(1);
        RecordedEvent m = merges.get(0);
        assertThat(m.getInt("inputs")).isEqualTo(merged.removedSegments().size());
        assertThat(m.getInt("outputs")).isEqualTo(merged.addedSegments().size());
        assertThat(m.getLong("bytesRead")).isEqualTo(merged.bytesRead());
        assertThat(m.getLong("bytesWritten")).isEqualTo(merged.bytesAfter()).isEqualTo((long) KEYS * recordSize);
        assertThat(m.getLong("recordsCopied")).isEqualTo(merged.recordsCopied()).isEqualTo(KEYS);
        assertThat(m.getDuration("restedMillis").toMillis()).isEqualTo(merged.restedMillis());
        assertThat((String) m.getValue("failure")).isNull();
        assertThat(m.getDuration().toNanos()).isPositive();

        List<RecordedEvent> hints = of(all, "HintWrite", dir);
        for (RecordedEvent h : hints) {
            assertThat(h.getBoolean("succeeded")).isTrue();
            assertThat(h.getLong("hintBytes")).isPositive();
            assertThat(h.getLong("segmentBytes")).as("an empty segment holds its header").isGreaterThanOrEqualTo(RecordFormat.FILE_HEADER_SIZE);
        }
        for (long id : idsAtClose.subList(1, idsAtClose.size())) {
            RecordedEvent last = hints.stream().filter(h -> h.getLong("segment") == id).reduce((a, b) -> b).orElseThrow();
            assertThat(last.getLong("hintBytes")).as("hint of %d", id).isEqualTo(Files.size(SegmentFiles.hintFile(dir, id)));
            assertThat(last.getLong("segmentBytes")).isEqualTo(Files.size(SegmentFiles.dataFile(dir, id)));
        }

        List<RecordedEvent> puts = of(all, "SlowPut", dir);
        assertThat(puts).as("threshold 0: every put").hasSize(KEYS + KEYS / 2);
        assertThat(puts).allSatisfy(e -> {
            assertThat(e.getInt("keyLength")).isEqualTo(key(0).length);
            assertThat(e.getInt("valueLength")).isEqualTo(VALUE);
        });
        List<RecordedEvent> gets = of(all, "SlowGet", dir);
        assertThat(gets).hasSize(2);
        assertThat(gets.stream().map(e -> e.getInt("valueLength")).collect(Collectors.toList())).containsExactly(VALUE, -1);
        assertThat(of(all, "WriteRefused", dir)).isEmpty();
    }

    @Test
    void aWriteStallIsRecordedWithTheBoundAndItsWorstFigures() throws Exception {
        Path dir = tmp.resolve("stalled").toAbsolutePath();
        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(Backend.FILE_CHANNEL));
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        watching.midWrite = name -> {
            if (name.endsWith(".data.tmp") && release.getCount() > 0) { // the first merges wait for the test
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        BitCaskOptions o = InternalOptions.withSegmentBackend(BitCaskOptions.builder(), watching).segmentSize(SEGMENT)
                .autoMerge(true).maxSpaceAmplification(1.5).writeStallTimeout(Duration.ofMillis(100)).build();
        Recording r = recordAll();
        r.start();
        long stalled;
        try (BitCask db = BitCask.open(dir, o)) {
            try {
                for (int i = 0; !timedOutWhileHeld(db, i, held); i++) {
                    // until a merge is held and a put timed out at the bound
                }
            } finally {
                release.countDown();
            }
            stalled = db.counters().stalledPuts();
        }
        List<RecordedEvent> stalls = of(stop(r, tmp.resolve("stalled.jfr")), "WriteStall", dir);
        assertThat(stalls).as("close ends the stall under way, if any").isNotEmpty();
        assertThat(stalls.stream().mapToLong(e -> e.getLong("stalledPuts")).sum()).isPositive().isLessThanOrEqualTo(stalled);
        RecordedEvent stop = stalls.stream().filter(e -> e.getBoolean("stopped")).findFirst().orElseThrow();
        long live = stop.getLong("liveBytes");
        assertThat(live).isPositive();
        assertThat(stop.getLong("hardLimitBytes")).isEqualTo((long) (1.5 * live) + SEGMENT);
        assertThat(stop.getLong("softLimitBytes")).isBetween(live, stop.getLong("hardLimitBytes"));
        assertThat(stop.getLong("dataBytes")).isGreaterThan(stop.getLong("softLimitBytes"));
        assertThat(stop.getLong("mergeDebtBytes")).isPositive();
        assertThat(stop.getLong("lowestWriteRate")).isGreaterThanOrEqualTo(64 << 10);
        assertThat(stalls.stream().mapToLong(e -> e.getLong("stallMillis")).sum()).as("the put that timed out waited 100 ms")
                .isGreaterThanOrEqualTo(100);
        assertThat(stop.getDuration()).isPositive();
    }

    /** Puts once, and says whether that put timed out at the space bound after {@code held} was let go. */
    private static boolean timedOutWhileHeld(BitCask db, int i, CountDownLatch held) {
        try {
            db.put(key(i % KEYS), new byte[VALUE]);
            return false;
        } catch (BitCaskException e) {
            assertThat(e).hasMessageContaining("space bound");
            return held.getCount() == 0;
        }
    }

    @Test
    void aFailedForceAndTheWritesRefusedAfterItAreRecorded() throws Exception {
        Path dir = tmp.resolve("failing").toAbsolutePath();
        FaultyBackend faulty = new FaultyBackend(Backends.segmentBackend(Backend.FILE_CHANNEL));
        BitCaskOptions o = InternalOptions.withSegmentBackend(BitCaskOptions.builder(), faulty).segmentSize(SEGMENT).build();
        Recording r = recordAll();
        r.start();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("a", new byte[3]);
            faulty.failForce.set(true);
            assertThatThrownBy(db::sync).isInstanceOf(BitCaskException.class);
            assertThatThrownBy(() -> db.put("b", new byte[3])).isInstanceOf(BitCaskException.class);
            assertThatThrownBy(() -> db.delete("a")).isInstanceOf(BitCaskException.class);
            assertThat(db.get("a")).hasSize(3);
        } catch (BitCaskException closeFailed) {
            // close forces nothing after a failure; it may say so
        }
        List<RecordedEvent> all = stop(r, tmp.resolve("failing.jfr"));
        List<RecordedEvent> forces = of(all, "Force", dir);
        assertThat(forces).hasSize(1);
        assertThat(forces.get(0).getBoolean("succeeded")).isFalse();
        assertThat(forces.get(0).getLong("bytesCovered")).isZero();
        List<RecordedEvent> refused = of(all, "WriteRefused", dir);
        assertThat(refused).as("the put and the delete").hasSize(2);
        assertThat(refused).allSatisfy(e -> assertThat(e.getString("forceFailure")).contains("fsync failed"));
        assertThat(of(all, "SlowPut", dir)).as("the put that returned").hasSize(1);
    }
}
