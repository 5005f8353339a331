package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.WriteBatch;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.log.WriteProtocol;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.UnforcedSegments;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Open loads the hint files of many segments in one sweep in hash order. Seeded random puts,
 * deletes and batches over a few hundred keys, spread over dozens of small segments so that most
 * keys are overwritten in several of them, then: the reopened store matches a {@link HashMap}
 * oracle, its per-segment live bytes match an open by scan, and sweeps of every size leave the
 * same key directory; a hint file out of order is refused. A failure names its seed; rerun it with {@code -Dcaskbench.seed=<seed>}.
 */
class HintSweepTest {

    private static final int KEYS = 300;
    private static final int OPS = 12_000;

    @TempDir
    Path tmp;

    private Path dir;

    @BeforeEach
    void store() {
        dir = tmp.resolve("store");
    }

    @Test
    void aStoreOpenedFromHintsHoldsTheNewestRecordOfEveryKey() throws IOException {
        long seed = Seeds.base();
        Map<String, byte[]> model = fill(seed);
        assertThat(hintFiles(dir)).as("seed %d: hinted segments", seed).isGreaterThan(20);
        BitCaskStats hinted;
        try (BitCask db = BitCask.open(dir, options().readOnly(true).build())) {
            assertThat(db.size()).as("seed %d", seed).isEqualTo(model.size());
            for (int k = 0; k < KEYS; k++) {
                assertThat(db.get(key(k))).as("seed %d, key %d", seed, k).isEqualTo(model.get(new String(key(k), StandardCharsets.UTF_8)));
            }
            hinted = db.stats();
        }
        Path scanned = tmp.resolve("scan");
        copyWithoutHints(dir, scanned);
        try (BitCask db = BitCask.open(scanned, options().readOnly(true).build())) {
            BitCaskStats byScan = db.stats();
            assertThat(hinted.segments()).as("seed %d: per-segment live bytes, hints against a scan", seed)
                    .isEqualTo(byScan.segments());
            assertThat(hinted.keyCount()).isEqualTo(byScan.keyCount());
        }
        // A writable open: the hinted segments are swept, then the newest is reopened for writes.
        try (BitCask db = BitCask.open(dir, options().build())) {
            for (int k = 0; k < KEYS; k++) {
                assertThat(db.get(key(k))).as("seed %d, key %d, writable open", seed, k)
                        .isEqualTo(model.get(new String(key(k), StandardCharsets.UTF_8)));
            }
            db.put(key(0), new byte[] {42});
        }
        try (BitCask db = BitCask.open(dir, options().readOnly(true).build())) {
            assertThat(db.get(key(0))).as("seed %d: the write after a writable open", seed).containsExactly(42);
            assertThat(db.size()).as("seed %d", seed).isEqualTo(model.size() + (model.containsKey("key-0") ? 0 : 1));
        }
    }

    @Test
    void sweepsOfEverySizeLeaveTheSameKeyDirectory() throws IOException {
        long seed = Seeds.base();
        Map<String, byte[]> model = fill(seed);
        Loaded whole = load(Integer.MAX_VALUE);
        for (int files : new int[] {1, 2, 5}) {
            Loaded part = load(files);
            assertThat(part.locations).as("seed %d, %d files a sweep: key locations", seed, files).isEqualTo(whole.locations);
            assertThat(part.liveBytes).as("seed %d, %d files a sweep: live bytes per segment", seed, files).isEqualTo(whole.liveBytes);
        }
        for (int k = 0; k < KEYS; k++) {
            long loc = whole.locations.get(k);
            boolean live = loc != 0 && !Location.isDeleted(loc);
            assertThat(live).as("seed %d, key %d live", seed, k).isEqualTo(model.containsKey(new String(key(k), StandardCharsets.UTF_8)));
        }
    }

    /**
     * A hint out of hash order is refused, and so is one whose entries for one key are out of record
     * order: applied as it stands, the latter would point the key at its older value.
     */
    @Test
    void aHintOutOfOrderIsRefusedAndItsDataFileScanned() throws IOException {
        byte[] older = "older".getBytes(StandardCharsets.UTF_8);
        byte[] newer = "newer".getBytes(StandardCharsets.UTF_8);
        try (BitCask db = BitCask.open(dir, options().build())) {
            db.put(key(0), older);
            db.put(key(0), newer);
            byte[] filler = new byte[1000];
            for (int k = 1; k < 200; k++) {
                db.put(key(k), filler); // about 200 KB: segment 1 is sealed and gets a hint
            }
        }
        Path hintFile = SegmentFiles.hintFile(dir, 1);
        Path data = SegmentFiles.dataFile(dir, 1);
        byte[] h = Files.readAllBytes(hintFile);
        byte[] header = Arrays.copyOf(Files.readAllBytes(data), RecordFormat.FILE_HEADER_SIZE);
        long salt = RecordFormat.headerSalt(header, RecordFormat.intactHeaderBlock(header));
        assertThat(HintFormat.validate(h, 1, salt, Files.size(data)).usable()).as("the file as written").isTrue();

        List<Integer> starts = entryStarts(h);
        int same = -1;
        int differ = -1;
        for (int e = 0; e + 1 < starts.size(); e++) {
            boolean sameKey = Arrays.equals(keyOf(h, starts.get(e)), keyOf(h, starts.get(e + 1)));
            if (sameKey && Arrays.equals(keyOf(h, starts.get(e)), key(0))) {
                same = e;
            } else if (!sameKey && differ < 0) {
                differ = e;
            }
        }
        assertThat(same).as("key 0's two entries are neighbours").isGreaterThanOrEqualTo(0);
        HintFormat.Validation byHash = HintFormat.validate(swapped(h, starts, differ), 1, salt, Files.size(data));
        assertThat(byHash.usable()).isFalse();
        assertThat(byHash.reason()).contains("out of hash order");
        byte[] oneKey = swapped(h, starts, same);
        HintFormat.Validation byOffset = HintFormat.validate(oneKey, 1, salt, Files.size(data));
        assertThat(byOffset.usable()).isFalse();
        assertThat(byOffset.reason()).contains("out of hash order");

        Files.write(hintFile, oneKey);
        try (BitCask db = BitCask.open(dir, options().readOnly(true).build())) {
            assertThat(db.get(key(0))).as("key 0, read through a scan of segment 1").isEqualTo(newer);
            assertThat(db.size()).isEqualTo(200);
        }
    }

    /** Where each entry of a hint file starts. */
    private static List<Integer> entryStarts(byte[] h) {
        List<Integer> starts = new ArrayList<>();
        for (int p = HintFormat.HEADER_SIZE; p < h.length - HintFormat.FOOTER_SIZE;
             p += HintFormat.ENTRY_SIZE + RecordFormat.getUnsignedShort(h, p + HintFormat.ENTRY_KEY_LENGTH)) {
            starts.add(p);
        }
        return starts;
    }

    private static byte[] keyOf(byte[] h, int start) {
        int keyOff = start + HintFormat.ENTRY_SIZE;
        return Arrays.copyOfRange(h, keyOff, keyOff + RecordFormat.getUnsignedShort(h, start + HintFormat.ENTRY_KEY_LENGTH));
    }

    /** The hint with entries {@code e} and {@code e + 1} swapped, its CRC made good again. */
    private static byte[] swapped(byte[] h, List<Integer> starts, int e) {
        int first = starts.get(e);
        int second = starts.get(e + 1);
        int end = e + 2 < starts.size() ? starts.get(e + 2) : h.length - HintFormat.FOOTER_SIZE;
        byte[] out = h.clone();
        System.arraycopy(h, second, out, first, end - second);
        System.arraycopy(h, first, out, first + end - second, second - first);
        int body = h.length - HintFormat.FOOTER_SIZE;
        RecordFormat.putInt(out, body + HintFormat.FOOTER_CRC, RecordFormat.crc(out, 0, body + HintFormat.FOOTER_CRC));
        return out;
    }

    /** Key locations in key order and live bytes in segment order, as a read-only recovery of {@code dir} left them. */
    private record Loaded(List<Long> locations, List<Long> liveBytes) {
    }

    private Loaded load(int sweepFiles) {
        SegmentBackend backend = new FileChannelBackend();
        StoreDirectory files = new StoreDirectory(dir, backend);
        SegmentTable table = new SegmentTable(files, BitCaskOptions.MIN_SEGMENT_SIZE);
        KeyDir keyDir = new KeyDir(0);
        KeyDirWriter keys = new KeyDirWriter(keyDir, table, dir, new WriteProtocol(), false);
        UnforcedSegments unforced = new UnforcedSegments(table, new ReaderGate(), backend);
        new Recovery(files, table, keyDir, keys, unforced, BitCaskOptions.MIN_SEGMENT_SIZE, 0, true, false, sweepFiles).run();
        try {
            List<Long> locations = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                byte[] key = key(k);
                locations.add(keys.currentLocation(key, KeyHash.hash(key)));
            }
            List<Long> live = new ArrayList<>();
            for (Segment seg : table.inOrder()) {
                live.add(seg.liveBytes());
            }
            return new Loaded(locations, live);
        } finally {
            table.inOrder().forEach(Segment::close);
        }
    }

    /** Random writes into a store of small segments; returns what it should hold. */
    private Map<String, byte[]> fill(long seed) {
        Random rnd = new Random(seed);
        Map<String, byte[]> model = new HashMap<>();
        try (BitCask db = BitCask.open(dir, options().build())) {
            for (int i = 0; i < OPS; i++) {
                int k = rnd.nextInt(KEYS);
                String name = new String(key(k), StandardCharsets.UTF_8);
                int op = rnd.nextInt(10);
                if (op < 7) {
                    byte[] value = new byte[1 + rnd.nextInt(600)];
                    rnd.nextBytes(value);
                    db.put(key(k), value);
                    model.put(name, value);
                } else if (op < 9) {
                    db.delete(key(k));
                    model.remove(name);
                } else {
                    WriteBatch batch = new WriteBatch();
                    for (int j = 0; j < 4; j++) {
                        int b = rnd.nextInt(KEYS);
                        String bname = new String(key(b), StandardCharsets.UTF_8);
                        if (rnd.nextBoolean()) {
                            byte[] value = new byte[1 + rnd.nextInt(100)];
                            rnd.nextBytes(value);
                            batch.put(key(b), value);
                            model.put(bname, value);
                        } else {
                            batch.delete(key(b));
                            model.remove(bname);
                        }
                    }
                    db.write(batch);
                }
            }
        }
        return model;
    }

    private static BitCaskOptions.Builder options() {
        return BitCaskOptions.builder().segmentSize(BitCaskOptions.MIN_SEGMENT_SIZE).autoMerge(false);
    }

    private static byte[] key(int k) {
        return ("key-" + k).getBytes(StandardCharsets.UTF_8);
    }

    private static long hintFiles(Path store) throws IOException {
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(p -> p.toString().endsWith(".hint")).count();
        }
    }

    private static void copyWithoutHints(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(".data")) {
                    Files.copy(p, to.resolve(name));
                }
            }
        }
    }
}
