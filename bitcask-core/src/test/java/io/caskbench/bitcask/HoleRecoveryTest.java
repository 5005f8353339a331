package io.caskbench.bitcask;

import io.caskbench.bitcask.RepairReport.ActionKind;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.testing.Backends;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hole in the middle of the active segment, as a crash leaves a range that was reserved and never
 * (or only partly) written: open steps over it, every put before and after it is found, nothing is
 * cut away, writes go on after it, and verify and repair report it without cutting the records
 * after it.
 */
class HoleRecoveryTest {

    private static final int KEYS = 40;

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        // hole starts: inside the first record, a record's start, its header, its value; sizes from one byte to several records
        List<Integer> sizes = List.of(1, 5, RecordFormat.HEADER_SIZE, 77, 300, 1500);
        return Backends.available().stream().flatMap(b -> Stream.of(70, 1000, 1003, 2500)
                .flatMap(from -> sizes.stream().map(size -> Arguments.of(b, from, size))));
    }

    private static byte[] value(int k) {
        byte[] v = new byte[(k * 37) % 200 + 1];
        Arrays.fill(v, (byte) ('a' + k % 26));
        v[0] = (byte) k;
        return v;
    }

    private static byte[] key(int k) {
        return String.format("k%03d", k).getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0} hole at {1} of {2} bytes")
    @MethodSource("cases")
    void everyPutBeforeAndAfterAHoleIsFound(Backend backend, int from, int size) throws IOException {
        Path dir = tmp.resolve("db");
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(1 << 20).build();
        long[] starts = new long[KEYS + 1];
        starts[0] = RecordFormat.FILE_HEADER_SIZE;
        try (BitCask db = BitCask.open(dir, o)) {
            for (int k = 0; k < KEYS; k++) {
                db.put(key(k), value(k));
                starts[k + 1] = starts[k] + RecordFormat.recordLength(0, key(k).length, value(k).length);
            }
        }
        List<Long> ids = SegmentFiles.dataIds(dir);
        assertThat(ids).hasSize(1);
        Path data = SegmentFiles.dataFile(dir, ids.get(0));
        assertThat(Files.size(data)).isEqualTo(starts[KEYS]);
        byte[] before = Files.readAllBytes(data);
        // The crash: no hint, a zero-filled range, and the unused space a preallocated segment has.
        Files.delete(SegmentFiles.hintFile(dir, ids.get(0)));
        try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
            f.seek(from);
            f.write(new byte[size]);
            f.setLength(starts[KEYS] + 4096);
        }
        byte[] after = Files.readAllBytes(data);
        boolean[] lost = new boolean[KEYS];
        for (int k = 0; k < KEYS; k++) {
            lost[k] = !Arrays.equals(before, (int) starts[k], (int) starts[k + 1], after, (int) starts[k], (int) starts[k + 1]);
        }
        int lastLost = IntStream.range(0, KEYS).filter(k -> lost[k]).max().orElse(-1);

        VerifyReport report = BitCask.verify(dir);
        if (lastLost >= 0 && lastLost < KEYS - 1) {
            assertThat(report.findings(Kind.CORRUPT_RECORDS)).as("the hole, with records after it").hasSize(1);
            assertThat(report.findings(Kind.TORN_TAIL)).isEmpty();
            RepairReport plan = BitCask.repair(dir, false, tmp.resolve("backup"), ProgressListener.NONE);
            assertThat(plan.actions()).noneMatch(a -> a.kind() == ActionKind.TRUNCATE);
        }

        try (BitCask db = BitCask.open(dir, o)) {
            for (int k = 0; k < KEYS; k++) {
                assertThat(db.get(key(k))).as("k%d (lost: %s)", k, lost[k]).isEqualTo(lost[k] ? null : value(k));
            }
            for (int k = KEYS; k < KEYS + 10; k++) {
                db.put(key(k), value(k));
            }
        }
        try (BitCask db = BitCask.open(dir, o)) {
            for (int k = 0; k < KEYS + 10; k++) {
                assertThat(db.get(key(k))).as("k%d after a second open", k).isEqualTo(k < KEYS && lost[k] ? null : value(k));
            }
        }
    }
}
