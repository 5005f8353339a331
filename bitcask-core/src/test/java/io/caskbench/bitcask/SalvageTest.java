package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.BatchStore;
import io.caskbench.bitcask.testing.DamagedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BitCask#salvage} reads out every record that checks on its own: the members of a batch one of
 * whose members is damaged, those of a batch whose header is, and the records of a tail open cut off
 * and kept, each with where it came from; open still applies a batch whole or not at all.
 */
class SalvageTest {

    /** Both batches of 1,000 in one segment, as {@code bitcask load} writes them. */
    private static final BitCaskOptions ONE_SEGMENT = BitCaskOptions.builder().segmentSize(1 << 20).build();
    private static final int RECORDS = 2000;

    @TempDir
    Path tmp;

    /** What a salvage reads: key to value text, and to where it came from when open does not apply it. */
    private record Read(Map<String, String> values, Map<String, Salvage.Origin> origins) {
    }

    private static Read salvage(Path dir) {
        Map<String, String> values = new TreeMap<>();
        Map<String, Salvage.Origin> origins = new TreeMap<>();
        try (Salvage s = BitCask.salvage(dir)) {
            s.forEach((k, v, origin) -> {
                String key = new String(k, StandardCharsets.UTF_8);
                values.put(key, new String(v, StandardCharsets.UTF_8));
                if (origin != null) {
                    origins.put(key, origin);
                }
            });
            assertThat(s.size()).isEqualTo(values.size());
        }
        return new Read(values, origins);
    }

    private Path store() throws IOException {
        Path dir = tmp.resolve("db");
        BatchStore.build(dir, ONE_SEGMENT);
        assertThat(DamagedStore.segments(dir)).isEqualTo(1);
        return dir;
    }

    private static void assertValues(Read read, int missing) {
        for (int i = 0; i < RECORDS; i++) {
            String expected = i == missing ? null : new String(BatchStore.value(i), StandardCharsets.UTF_8);
            assertThat(read.values().get(BatchStore.key(i))).as(BatchStore.key(i)).isEqualTo(expected);
        }
    }

    @Test
    void aDamagedMemberCostsOnlyItsOwnRecordAndTheOthersSayWhichBatchTheyCameFrom() throws IOException {
        Path dir = store();
        Files.delete(DamagedStore.hint(dir, 1)); // open scans, and leaves the damaged batch out whole
        BatchStore.damageValue(DamagedStore.data(dir, 1), 500);
        try (BitCask db = BitCask.open(dir, ONE_SEGMENT.toBuilder().readOnly(true).build())) {
            assertThat(db.size()).as("open applies a batch whole or not at all").isEqualTo(RECORDS / 2);
        }

        Read read = salvage(dir);
        assertThat(read.values()).hasSize(RECORDS - 1);
        assertValues(read, 500);
        assertThat(read.origins()).hasSize(RECORDS / 2 - 1);
        assertThat(read.origins().values()).containsOnly(new Salvage.Origin(DamagedStore.data(dir, 1), 64, true));
        assertThat(read.origins()).doesNotContainKey(BatchStore.key(1500));
        assertThat(read.origins().values().iterator().next().toString()).isEqualTo("000000001.data: the damaged batch at offset 64");
    }

    @Test
    void theMembersOfABatchWhoseHeaderIsDamagedAreReadToo() throws IOException {
        Path dir = store();
        DamagedStore.flip(DamagedStore.data(dir, 1), 64 + 4); // the first batch's header
        Read read = salvage(dir);
        assertValues(read, -1);
        assertThat(read.origins()).hasSize(RECORDS / 2);
        assertThat(read.origins().values()).allSatisfy(o -> {
            assertThat(o.headerIntact()).isFalse();
            assertThat(o.offset()).isEqualTo(64);
        });
    }

    @Test
    void theRecordsOfATailThatOpenCutOffAndKeptAreRead() throws IOException {
        Path dir = store();
        Files.delete(DamagedStore.hint(dir, 1));
        BatchStore.damageValue(DamagedStore.data(dir, 1), 1500);
        try (BitCask db = BitCask.open(dir, ONE_SEGMENT)) {
            db.put(BatchStore.key(1700), "written after the cut".getBytes(StandardCharsets.UTF_8));
        }
        Path tail;
        try (var s = Files.list(dir)) {
            tail = s.filter(p -> p.getFileName().toString().startsWith("000000001.data.tail-")).findFirst().orElseThrow();
        }

        Read read = salvage(dir);
        assertThat(read.values()).hasSize(RECORDS - 1);
        assertThat(read.values().get(BatchStore.key(1700))).as("written after the cut: newer than the tail")
                .isEqualTo("written after the cut");
        assertThat(read.values().get(BatchStore.key(1501))).isEqualTo(new String(BatchStore.value(1501), StandardCharsets.UTF_8));
        assertThat(read.origins()).hasSize(RECORDS / 2 - 2);
        assertThat(read.origins().values()).allSatisfy(o -> assertThat(o.file()).isEqualTo(tail));
    }

    @Test
    void aCleanStoreReadsAsOpenReadsIt() throws IOException {
        Path dir = store();
        Read read = salvage(dir);
        assertValues(read, -1);
        assertThat(read.origins()).isEmpty();
    }
}
