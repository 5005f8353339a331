package io.caskbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.caskbench.bitcask.format.RecordFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static io.caskbench.cli.TestStore.cut;
import static io.caskbench.cli.TestStore.data;
import static io.caskbench.cli.TestStore.flip;
import static io.caskbench.cli.TestStore.hint;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jar's verify and repair on every kind of damage the corruption tests make: verify names each
 * kind and exits 1, a dry run changes nothing, and repair --apply fixes what recovery's rules
 * fix, leaves the rest for a merge or a person, and says so with its exit code.
 */
class VerifyRepairIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** What repair --apply achieves for a kind of damage. */
    enum Outcome {
        /** Verify is clean afterwards. */
        FIXED,
        /** The named kinds remain until a merge drops them. */
        MERGE,
        /** Nothing is changed: a person must look. */
        LEFT,
        /** The cut bytes, in which records check, are kept beside the segment until a person deletes them. */
        KEPT
    }

    /** A way to damage a store, the findings it must cause, and what repair does about it. */
    enum Damage {
        FLIPPED_BYTE_INSIDE_A_SEGMENT(Outcome.MERGE, Set.of("CORRUPT_RECORDS", "HINT_MISMATCH"), Set.of("CORRUPT_RECORDS")) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                flip(data(dir, 2), Files.size(data(dir, 2)) / 2, 0x10);
            }
        },
        ZEROED_RANGE_INSIDE_A_SEGMENT(Outcome.MERGE, Set.of("CORRUPT_RECORDS", "HINT_MISMATCH"), Set.of("CORRUPT_RECORDS")) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                TestStore.zero(data(dir, 1), Files.size(data(dir, 1)) / 3, 64);
            }
        },
        /** The file ends with a batch: the members before the cut check, so the repair keeps the bytes it cuts. */
        NEWEST_SEGMENT_CUT_SHORT(Outcome.KEPT, Set.of("TORN_TAIL", "HINT_UNUSABLE"), Set.of("KEPT_TAIL")) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                cut(data(dir, segments), 5);
            }
        },
        /** The hint lists the damaged last batch, so it was whole once: damage that open keeps reading, not a tail it cuts. */
        NEWEST_SEGMENT_LAST_BYTE_FLIPPED(Outcome.MERGE, Set.of("CORRUPT_RECORDS", "HINT_MISMATCH"), Set.of("CORRUPT_RECORDS")) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                flip(data(dir, segments), Files.size(data(dir, segments)) - 1, 0x01);
            }
        },
        OLDER_SEGMENT_CUT_SHORT(Outcome.MERGE, Set.of("TORN_TAIL", "HINT_UNUSABLE"), Set.of("TORN_TAIL")) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                cut(data(dir, 1), 5);
            }
        },
        HINT_DELETED(Outcome.FIXED, Set.of("HINT_MISSING"), Set.of()) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                Files.delete(hint(dir, 2));
            }
        },
        HINT_FLIPPED(Outcome.FIXED, Set.of("HINT_UNUSABLE"), Set.of()) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                flip(hint(dir, 2), Files.size(hint(dir, 2)) / 2, 0x40);
            }
        },
        HINT_CUT_SHORT(Outcome.FIXED, Set.of("HINT_UNUSABLE"), Set.of()) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                cut(hint(dir, 1), 3);
            }
        },
        MERGE_DEBRIS(Outcome.FIXED, Set.of("DEBRIS"), Set.of()) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                Files.write(dir.resolve(String.format("%09d.data.tmp", segments + 3)), new byte[4096]);
            }
        },
        FIRST_HEADER_COPY_DAMAGED(Outcome.FIXED, Set.of("HEADER_COPY_DAMAGED"), Set.of()) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                flip(data(dir, 1), 10, 0xFF);
            }
        },
        SECOND_HEADER_COPY_DAMAGED(Outcome.FIXED, Set.of("HEADER_COPY_DAMAGED"), Set.of()) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                flip(data(dir, segments), RecordFormat.HEADER_BLOCK_SIZE + 10, 0xFF);
            }
        },
        BOTH_HEADER_COPIES_DAMAGED(Outcome.LEFT, Set.of("HEADER_UNREADABLE"), Set.of("HEADER_UNREADABLE")) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                flip(data(dir, 2), 10, 0xFF);
                flip(data(dir, 2), RecordFormat.HEADER_BLOCK_SIZE + 10, 0xFF);
            }
        },
        ANOTHER_FORMAT_VERSION(Outcome.LEFT, Set.of("WRONG_VERSION"), Set.of("WRONG_VERSION")) {
            @Override
            void apply(Path dir, int segments) throws IOException {
                writeVersion(data(dir, 1), RecordFormat.VERSION + 1);
            }
        };

        final Outcome outcome;
        final Set<String> found;
        final Set<String> left;

        Damage(Outcome outcome, Set<String> found, Set<String> left) {
            this.outcome = outcome;
            this.found = found;
            this.left = left;
        }

        abstract void apply(Path dir, int segments) throws IOException;
    }

    /** Rewrites both header copies of {@code file} with another version, each with a valid CRC. */
    static void writeVersion(Path file, int version) throws IOException {
        byte[] all = Files.readAllBytes(file);
        for (int at = 0; at < RecordFormat.FILE_HEADER_SIZE; at += RecordFormat.HEADER_BLOCK_SIZE) {
            RecordFormat.putShort(all, at + RecordFormat.HEADER_VERSION_OFFSET, version);
            RecordFormat.putInt(all, at + RecordFormat.HEADER_CRC_OFFSET, RecordFormat.crc(all, at, RecordFormat.HEADER_CRC_OFFSET));
        }
        Files.write(file, all);
    }

    private Path store() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 1500);
        assertThat(TestStore.segments(dir)).isGreaterThanOrEqualTo(3);
        return dir;
    }

    /** The kinds of the findings of {@code bitcask verify --json DIR}. */
    private static Set<String> kinds(Path dir) throws IOException {
        Cli.Run r = Cli.run("verify", "--json", dir.toString());
        JsonNode report = JSON.readTree(r.stdout());
        Set<String> kinds = new TreeSet<>();
        report.get("findings").forEach(f -> kinds.add(f.get("kind").asText()));
        assertThat(r.exit()).as(r.toString()).isEqualTo(kinds.isEmpty() ? 0 : 1);
        assertThat(report.get("clean").asBoolean()).isEqualTo(kinds.isEmpty());
        return kinds;
    }

    @Test
    void aCleanStoreVerifiesAndNeedsNoRepair() throws IOException {
        Path dir = store();
        Cli.Run verify = Cli.run("verify", dir.toString());
        assertThat(verify.exit()).as(verify.toString()).isZero();
        assertThat(verify.out()).contains("no damage found");
        assertThat(verify.stderr()).as("no progress bar and no warning when stderr is not a terminal").isEmpty();
        assertThat(kinds(dir)).isEmpty();
        Cli.Run repair = Cli.run("repair", "--apply", dir.toString());
        assertThat(repair.exit()).as(repair.toString()).isZero();
        assertThat(repair.out()).contains("nothing to repair");
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.filter(Files::isDirectory)).as("no backup when nothing changes").isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void verifyFindsTheDamageAndRepairDoesWhatRecoveryWould(Damage damage) throws IOException {
        Path dir = store();
        damage.apply(dir, TestStore.segments(dir));

        Cli.Run verify = Cli.run("verify", dir.toString());
        assertThat(verify.exit()).as(verify.toString()).isEqualTo(1);
        damage.found.forEach(kind -> assertThat(verify.out()).contains(kind));
        assertThat(verify.stderr()).isEmpty();
        assertThat(kinds(dir)).isEqualTo(new TreeSet<>(damage.found));

        Map<String, String> damaged = TestStore.fingerprint(dir);
        Cli.Run dry = Cli.run("repair", dir.toString());
        assertThat(dry.exit()).as(dry.toString()).isEqualTo(1);
        assertThat(dry.out()).contains(damage.outcome == Outcome.LEFT ? "left:" : "would:");
        assertThat(TestStore.fingerprint(dir)).as("a dry run changes nothing").isEqualTo(damaged);

        Cli.Run apply = Cli.run("repair", "--apply", dir.toString());
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(damage.outcome == Outcome.FIXED ? 0 : 1);
        assertThat(kinds(dir)).isEqualTo(new TreeSet<>(damage.left));
        switch (damage.outcome) {
            case FIXED -> {
                assertThat(apply.out()).contains("no damage found");
                if (damage == Damage.HINT_DELETED) {
                    assertThat(apply.out()).contains("only new ones written");
                } else {
                    Map<String, String> backups = TestStore.fingerprint(backupDir(dir));
                    assertThat(backups).as("every changed file was copied first").isNotEmpty();
                    backups.forEach((name, digest) -> assertThat(damaged).containsEntry(name, digest));
                }
            }
            case MERGE -> {
                assertThat(apply.out()).contains("remain").doesNotContain(" 1 findings");
                Cli.Run merge = Cli.run("merge", dir.toString());
                assertThat(merge.exit()).as(merge.toString()).isZero();
                assertThat(kinds(dir)).as("a merge drops what repair leaves").isEmpty();
            }
            case LEFT -> {
                assertThat(apply.out()).contains("left:");
                assertThat(TestStore.fingerprint(dir)).as("nothing is changed").isEqualTo(damaged);
            }
            case KEPT -> {
                assertThat(apply.out()).contains("TRUNCATE").contains(".tail-");
                try (Stream<Path> s = Files.list(dir)) {
                    for (Path tail : s.filter(p -> p.getFileName().toString().contains(".data.tail-")).toList()) {
                        Files.delete(tail);
                    }
                }
                assertThat(kinds(dir)).as("once a person deletes the kept tail").isEmpty();
            }
        }
        if (damage.outcome != Outcome.LEFT) {
            Cli.Run get = Cli.run("get", dir.toString(), "key1001");
            assertThat(get.exit()).as(get.toString()).isZero();
            assertThat(get.out()).startsWith("round 2 of key 1001 ");
        }
    }

    /**
     * 2,000 records in atomic batches of 1,000, one byte flipped in a value on a sealed segment, whose
     * hint lists the batch: only that key fails, and the repair keeps it so. Its dry run names the one
     * key it takes out of the hint; the other 999 of the batch read after it as before.
     */
    @Test
    void aRepairOfADamagedBatchMemberCostsOnlyThatKeyAndItsDryRunNamesIt() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.batches(dir, 2000, 1000, io.caskbench.bitcask.BitCaskOptions.builder().segmentSize(128 << 10).autoMerge(false).build());
        assertThat(TestStore.segments(dir)).as("a segment per batch").isEqualTo(2);
        TestStore.flipValue(data(dir, 1), 500);

        Cli.Run dry = Cli.run("repair", dir.toString());
        assertThat(dry.exit()).as(dry.toString()).isEqualTo(1);
        assertThat(dry.out()).contains("would: WRITE_HINT 000000001.hint")
                .contains("leaves out \"key00500\": the record at offset ").doesNotContain("key00501");
        JsonNode plan = JSON.readTree(Cli.run("repair", "--json", dir.toString()).stdout());
        assertThat(plan.get("actions").get(0).get("leftOut")).hasSize(1);
        assertThat(plan.get("actions").get(0).get("leftOut").get(0).get("key").asText()).isEqualTo("key00500");

        Cli.Run apply = Cli.run("repair", "--apply", dir.toString());
        assertThat(apply.out()).as(apply.toString()).contains("done:  WRITE_HINT 000000001.hint");
        for (int i : new int[] {0, 499, 501, 999, 1000, 1999}) {
            Cli.Run get = Cli.run("get", dir.toString(), TestStore.batchKey(i));
            assertThat(get.exit()).as(get.toString()).isZero();
            assertThat(get.stdout()).isEqualTo(TestStore.batchValue(i));
        }
        Cli.Run damaged = Cli.run("get", dir.toString(), TestStore.batchKey(500));
        assertThat(damaged.exit()).as(damaged.toString()).isEqualTo(1);
        assertThat(Cli.run("stats", dir.toString()).out()).containsPattern("keys +1,999\\n");
    }

    private static Path backupDir(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("repair-")).findFirst().orElseThrow();
        }
    }
}
