package io.caskbench.bitcask.segment;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A segment with a hole: a range that a crash left unwritten (zeros) or half written (bytes that
 * fail their check), with whole records before and after it. The scan must step over the hole,
 * visit every record that the hole does not touch and no other, and never read a record out of
 * the bytes of a value.
 */
class SegmentScannerHoleTest {

    private static final long SALT = 0x5eed_cafe_f00dL;
    /** Unused preallocated space after the records, as a mapped active segment has. */
    private static final int ZERO_TAIL = 512;

    /** A record laid out in the test file: where it starts and ends, and whether it is a batch. */
    private record Laid(long start, long end, List<Long> visits) {
        /** True when {@code file} differs from {@code clean} anywhere in this record. */
        boolean damaged(byte[] clean, byte[] file) {
            return !Arrays.equals(clean, (int) start, (int) end, file, (int) start, (int) end);
        }
    }

    /** An in-memory data file read through the scanner's reader interface. */
    private static final class ArrayReader implements SegmentReader {
        private final byte[] bytes;

        ArrayReader(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            System.arraycopy(bytes, (int) position, dst, off, len);
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public void close() {
        }
    }

    /** Builds the file: records of many lengths and one batch, then a zero tail. */
    private static byte[] build(List<Laid> laid) {
        byte[] file = new byte[8192];
        int pos = RecordFormat.FILE_HEADER_SIZE;
        for (int i = 0; i < 12; i++) {
            if (i == 5) {
                pos = batch(file, pos, laid);
                continue;
            }
            byte[] key = ("key" + i).getBytes(StandardCharsets.UTF_8);
            byte[] value = new byte[(i * 13) % 70];
            Arrays.fill(value, (byte) (i + 1));
            int len = RecordFormat.encode(file, pos, 1000 + i, 0, 0L, key, value);
            RecordFormat.seal(file, pos, SALT, pos);
            laid.add(new Laid(pos, pos + len, List.of((long) pos)));
            pos += len;
        }
        return Arrays.copyOf(file, pos + ZERO_TAIL);
    }

    private static int batch(byte[] file, int pos, List<Laid> laid) {
        int p = pos + RecordFormat.BATCH_HEADER_SIZE;
        List<Long> members = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            members.add((long) p);
            int len = RecordFormat.encode(file, p, 2000, RecordFormat.IN_BATCH, 0L,
                    ("member" + m).getBytes(StandardCharsets.UTF_8), new byte[]{(byte) m, 7, 7});
            RecordFormat.seal(file, p, SALT, p);
            p += len;
        }
        int span = p - pos - RecordFormat.BATCH_HEADER_SIZE;
        RecordFormat.encodeBatchHeader(file, pos, 2000, 3, span,
                RecordFormat.crc(file, pos + RecordFormat.BATCH_HEADER_SIZE, span));
        RecordFormat.seal(file, pos, SALT, pos);
        laid.add(new Laid(pos, p, members));
        return p;
    }

    /** Scans {@code file} and returns the offsets visited and where the content ends. */
    private static List<Long> scan(byte[] file, long[] end) {
        List<Long> visited = new ArrayList<>();
        SegmentScanner.Result r = new SegmentScanner(new ArrayReader(file), file.length, SALT, QUIET)
                .scan(RecordFormat.FILE_HEADER_SIZE, (offset, buf, off, length) -> visited.add(offset));
        end[0] = r.end();
        return visited;
    }

    private static final SegmentScanner.DamageListener QUIET = new SegmentScanner.DamageListener() {
        @Override
        public void skipped(long offset, long length, boolean batch) {
        }

        @Override
        public void torn(long offset, long length, boolean batch) {
        }
    };

    /** Hole starts: each record's first byte, inside its header, its key, its value, and its last byte. */
    private static TreeSet<Long> holeStarts(List<Laid> laid) {
        TreeSet<Long> starts = new TreeSet<>();
        for (Laid l : laid) {
            starts.add(l.start());
            starts.add(l.start() + 1);
            starts.add(l.start() + RecordFormat.HEADER_SIZE - 1);
            starts.add(l.start() + RecordFormat.HEADER_SIZE + 2);
            starts.add((l.start() + l.end()) / 2);
            starts.add(l.end() - 1);
        }
        return starts;
    }

    private static void checkHole(byte[] clean, List<Laid> laid, long from, int size, Random fill, String what) {
        byte[] file = clean.clone();
        long to = Math.min(from + size, file.length);
        for (long p = from; p < to; p++) {
            file[(int) p] = fill == null ? 0 : (byte) (clean[(int) p] ^ (1 + fill.nextInt(255)));
        }
        List<Long> expected = new ArrayList<>();
        long lastWhole = RecordFormat.FILE_HEADER_SIZE;
        for (Laid l : laid) {
            if (!l.damaged(clean, file)) {
                expected.addAll(l.visits());
                lastWhole = l.end();
            }
        }
        long[] end = new long[1];
        List<Long> visited = scan(file, end);
        assertThat(visited).as("%s hole [%d, %d)", what, from, to).isEqualTo(expected);
        // Writing goes on at the end: never before a whole record, never past the records laid.
        assertThat(end[0]).as("%s hole [%d, %d): end", what, from, to)
                .isBetween(lastWhole, laid.get(laid.size() - 1).end());
    }

    @Test
    void aZeroHoleOfEverySizeIsSteppedOver() {
        List<Laid> laid = new ArrayList<>();
        byte[] clean = build(laid);
        long contentEnd = laid.get(laid.size() - 1).end();
        for (long from : holeStarts(laid)) {
            for (int size = 1; from + size <= contentEnd + 1; size++) {
                checkHole(clean, laid, from, size, null, "zero");
            }
        }
    }

    @Test
    void aHoleOfBadBytesOfEverySizeIsSteppedOver() {
        long seed = Seeds.base();
        List<Laid> laid = new ArrayList<>();
        byte[] clean = build(laid);
        long contentEnd = laid.get(laid.size() - 1).end();
        Random rnd = new Random(seed);
        for (long from : holeStarts(laid)) {
            for (int size = 1; from + size <= contentEnd + 1; size++) {
                checkHole(clean, laid, from, size, rnd, "seed " + seed + " garbage");
            }
        }
    }

    @Test
    void aRecordImageInsideAValueIsNeverVisited() {
        byte[] file = new byte[4096];
        int pos = RecordFormat.FILE_HEADER_SIZE;
        // A real record, whose exact bytes the next value copies.
        int first = RecordFormat.encode(file, pos, 1, 0, 0L, "copied".getBytes(StandardCharsets.UTF_8),
                "real".getBytes(StandardCharsets.UTF_8));
        RecordFormat.seal(file, pos, SALT, pos);
        byte[] copy = Arrays.copyOfRange(file, pos, pos + first);
        int outer = pos + first;
        byte[] key = "outer".getBytes(StandardCharsets.UTF_8);
        int valueAt = outer + RecordFormat.HEADER_SIZE + key.length;
        // The value holds the copy, then an image sealed for its own place but with another file's salt.
        byte[] image = new byte[64];
        int imageLen = RecordFormat.encode(image, 0, 1, 0, 0L, "forged".getBytes(StandardCharsets.UTF_8),
                "bad".getBytes(StandardCharsets.UTF_8));
        RecordFormat.seal(image, 0, SALT + 1, valueAt + copy.length);
        byte[] value = new byte[copy.length + imageLen];
        System.arraycopy(copy, 0, value, 0, copy.length);
        System.arraycopy(image, 0, value, copy.length, imageLen);
        int outerLen = RecordFormat.encode(file, outer, 2, 0, 0L, key, value);
        RecordFormat.seal(file, outer, SALT, outer);
        int last = outer + outerLen;
        int lastLen = RecordFormat.encode(file, last, 3, 0, 0L, "last".getBytes(StandardCharsets.UTF_8), new byte[5]);
        RecordFormat.seal(file, last, SALT, last);
        byte[] whole = Arrays.copyOf(file, last + lastLen + ZERO_TAIL);
        long[] end = new long[1];
        assertThat(scan(whole, end)).containsExactly((long) pos, (long) outer, (long) last);
        for (int size = 1; size <= RecordFormat.HEADER_SIZE + key.length; size++) {
            byte[] holed = whole.clone();
            Arrays.fill(holed, outer, outer + size, (byte) 0);
            assertThat(scan(holed, end)).as("outer header cut by %d bytes", size).containsExactly((long) pos, (long) last);
            assertThat(end[0]).isEqualTo(last + lastLen);
        }
    }
}
