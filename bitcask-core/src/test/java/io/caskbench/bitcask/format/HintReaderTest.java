package io.caskbench.bitcask.format;

import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Open reads hint files through a window that slides forward. Seeded: hint files of random keys (a
 * few of them the largest a key may be) are checked and walked through windows of several sizes,
 * intact and after random damage, and must give what the whole file in one array gives. The
 * oracle for the check is the footer's CRC computed over the array, and for the walk
 * {@link HintFormat#forEach} over the array. A failure names its seed; rerun it with
 * {@code -Dcaskbench.seed=<seed>}.
 */
class HintReaderTest {

    private static final long ID = 7;
    private static final long SALT = 0x5EED5EEDL;

    @Test
    void aWindowChecksAndWalksAFileAsTheWholeArrayDoes() {
        long seed = Seeds.base();
        Random random = new Random(seed);
        for (int file = 0; file < 40; file++) {
            Hint h = hint(random, file % 10 == 0);
            for (int window : windows(h)) {
                HintFormat.Validation v = HintFormat.validate(windowed(h.bytes, window, true), ID, SALT, h.dataLength);
                assertThat(v.reason()).as("seed %d, file %d, window %d", seed, file, window).isNull();
                assertThat(v.covered()).isEqualTo(h.dataLength);
                assertThat(walk(windowed(h.bytes, window, false))).as("seed %d, file %d, window %d: entries", seed, file, window)
                        .isEqualTo(walk(h.bytes));
            }
        }
    }

    @Test
    void aDamagedFileIsRefusedForTheSameReasonThroughAnyWindow() {
        long seed = Seeds.base();
        Random random = new Random(seed);
        int refused = 0;
        for (int round = 0; round < 400; round++) {
            Hint h = hint(random, false);
            byte[] damaged = damage(random, h.bytes);
            HintFormat.Validation whole = HintFormat.validate(damaged, ID, SALT, h.dataLength);
            boolean crcIntact = damaged.length >= HintFormat.HEADER_SIZE + HintFormat.FOOTER_SIZE
                    && RecordFormat.crc(damaged, 0, damaged.length - Integer.BYTES)
                    == RecordFormat.getInt(damaged, damaged.length - Integer.BYTES);
            if (damaged.length >= HintFormat.HEADER_SIZE + HintFormat.FOOTER_SIZE) {
                assertThat("CRC mismatch".equals(whole.reason())).as("seed %d, round %d: %s", seed, round, whole.reason())
                        .isEqualTo(!crcIntact);
            }
            refused += whole.usable() ? 0 : 1;
            // One damaged field cannot make an entry longer than its record, which these windows hold.
            for (int window : new int[] {128, 1000, 4096, HintReader.WINDOW_BYTES}) {
                HintFormat.Validation through = HintFormat.validate(windowed(damaged, window, true), ID, SALT, h.dataLength);
                assertThat(through).as("seed %d, round %d, window %d", seed, round, window).isEqualTo(whole);
            }
        }
        assertThat(refused).as("seed %d: damaged files refused", seed).isGreaterThan(250);
    }

    @Test
    void theCrcCoversEveryByteButTheLastFourWhateverIsLoaded() {
        long seed = Seeds.base();
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            byte[] file = new byte[8 + random.nextInt(5000)];
            random.nextBytes(file);
            int window = 8 + random.nextInt(file.length);
            HintReader r = windowed(file, window, true);
            long at = 0;
            while (random.nextBoolean()) {
                at = Math.min(file.length - 1, at + random.nextInt(3 * window));
                int len = random.nextInt((int) Math.min(window, file.length - at) + 1);
                int i = r.load(at, len);
                for (int k = 0; k < len; k++) {
                    assertThat(r.window()[i + k]).as("seed %d, round %d, byte %d", seed, round, at + k).isEqualTo(file[(int) at + k]);
                }
            }
            CRC32C crc = new CRC32C();
            crc.update(file, 0, file.length - 4);
            assertThat(r.crc()).as("seed %d, round %d", seed, round).isEqualTo((int) crc.getValue());
        }
    }

    @Test
    void aLoadBehindTheWindowOrPastTheFileIsRefused() {
        byte[] file = new byte[1000];
        HintReader r = windowed(file, 100, false);
        r.load(500, 50);
        assertThatThrownBy(() -> r.load(400, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.load(990, 11)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.load(600, 101)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(r::crc).isInstanceOf(IllegalStateException.class);
    }

    /** A hint file and the length of the data file it describes. */
    private record Hint(byte[] bytes, long dataLength, int largestEntry) {
    }

    /** Entries for records of random keys, now and then the largest key there is. */
    private static Hint hint(Random random, boolean largeKeys) {
        HintFormat.Builder b = new HintFormat.Builder(ID, SALT);
        long offset = RecordFormat.FILE_HEADER_SIZE;
        int largest = 0;
        int n = random.nextInt(300);
        for (int i = 0; i < n; i++) {
            int keyLength = largeKeys && random.nextInt(40) == 0 ? RecordFormat.MAX_KEY_LENGTH : 1 + random.nextInt(40);
            byte[] key = new byte[keyLength];
            random.nextBytes(key);
            int flags = random.nextInt(5) == 0 ? RecordFormat.TOMBSTONE : 0;
            byte[] value = flags == 0 ? new byte[random.nextInt(30)] : null;
            byte[] record = new byte[RecordFormat.recordLength(flags, keyLength, value == null ? 0 : value.length)];
            int length = RecordFormat.encode(record, 0, i, flags, 0, key, value);
            b.add(offset, record, 0, length);
            offset += length;
            largest = Math.max(largest, HintFormat.ENTRY_SIZE + keyLength);
        }
        return new Hint(b.finish(offset), offset, largest);
    }

    /** Windows from the smallest that holds the largest entry and the footer, to the store's own. */
    private static int[] windows(Hint h) {
        int least = Math.max(h.largestEntry, HintFormat.HEADER_SIZE) + HintFormat.FOOTER_SIZE;
        return IntStream.of(least, least + 13, 4096, HintReader.WINDOW_BYTES).filter(w -> w >= least).toArray();
    }

    private static HintReader windowed(byte[] file, int window, boolean checksum) {
        return new HintReader((position, dst, off, len) -> System.arraycopy(file, (int) position, dst, off, len),
                file.length, checksum, window);
    }

    /** Every entry of a file read through {@code r}, as text. */
    private static List<String> walk(HintReader r) {
        List<String> out = new ArrayList<>();
        long body = r.size() - HintFormat.FOOTER_SIZE;
        for (long p = HintFormat.HEADER_SIZE; p < body; ) {
            int e = r.load(p, HintFormat.ENTRY_SIZE);
            int keyLength = RecordFormat.getUnsignedShort(r.window(), e + HintFormat.ENTRY_KEY_LENGTH);
            e = r.load(p, HintFormat.ENTRY_SIZE + keyLength);
            byte[] w = r.window();
            out.add(entry(Integer.toUnsignedLong(RecordFormat.getInt(w, e + HintFormat.ENTRY_OFFSET)),
                    RecordFormat.getInt(w, e + HintFormat.ENTRY_LENGTH), RecordFormat.getUnsignedShort(w, e + HintFormat.ENTRY_FLAGS),
                    KeyHash.hash(w, e + HintFormat.ENTRY_SIZE, keyLength)));
            p += HintFormat.ENTRY_SIZE + keyLength;
        }
        return out;
    }

    /** Every entry of a whole file, by {@link HintFormat#forEach}. */
    private static List<String> walk(byte[] file) {
        List<String> out = new ArrayList<>();
        HintFormat.forEach(file, (offset, recordLength, flags, expiresAt, hint, keyOff, keyLength) ->
                out.add(entry(offset, recordLength, flags, KeyHash.hash(hint, keyOff, keyLength))));
        return out;
    }

    private static String entry(long offset, int recordLength, int flags, int hash) {
        return offset + "/" + recordLength + "/" + flags + "/" + hash;
    }

    /** One random kind of damage: a flipped byte, a cut, a changed count, or a flip with the CRC fixed. */
    private static byte[] damage(Random random, byte[] hint) {
        byte[] out = hint.clone();
        switch (random.nextInt(4)) {
            case 0 -> out[random.nextInt(out.length)] ^= (byte) (1 + random.nextInt(255));
            case 1 -> out = Arrays.copyOf(out, random.nextInt(out.length));
            case 2 -> RecordFormat.putInt(out, out.length - HintFormat.FOOTER_SIZE + HintFormat.FOOTER_COUNT,
                    RecordFormat.getInt(out, out.length - HintFormat.FOOTER_SIZE) + 1 + random.nextInt(3));
            default -> {
                out[random.nextInt(out.length - Integer.BYTES)] ^= (byte) (1 + random.nextInt(255));
                RecordFormat.putInt(out, out.length - Integer.BYTES, RecordFormat.crc(out, 0, out.length - Integer.BYTES));
            }
        }
        return out;
    }
}
