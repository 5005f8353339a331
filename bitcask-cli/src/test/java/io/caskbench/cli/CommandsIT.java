package io.caskbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every subcommand but verify and repair, through the packaged jar. */
class CommandsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Cli.Run ok(Cli.Run r) {
        assertThat(r.exit()).as(r.toString()).isZero();
        return r;
    }

    /** Everything a reader of the store in {@code dir} sees. */
    private static Map<ByteBuffer, ByteBuffer> contents(Path dir) {
        Map<ByteBuffer, ByteBuffer> all = new HashMap<>();
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().readOnly(true).build())) {
            db.forEach((k, v) -> all.put(ByteBuffer.wrap(k), ByteBuffer.wrap(v)));
        }
        return all;
    }

    /** The lines of a dump in byte order, so two dumps of the same data compare equal. */
    private static List<String> sortedLines(byte[] dump) {
        return new String(dump, StandardCharsets.UTF_8).lines().sorted().toList();
    }

    @Test
    void statsShowsKeysBytesSegmentsHintsAndTheFormatVersion() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 1200);
        long keys = contents(dir).size();
        Cli.Run text = ok(Cli.run("stats", dir.toString()));
        assertThat(text.out()).contains("keys        " + Reports.count(keys))
                .contains("format      version 2")
                .contains("hints       " + TestStore.segments(dir) + " of " + TestStore.segments(dir) + " data files; they list 100.0%")
                .contains("writer      none")
                .contains("000000001 ");
        JsonNode json = JSON.readTree(ok(Cli.run("stats", "--json", dir.toString())).stdout());
        assertThat(json.get("keys").asLong()).isEqualTo(keys);
        assertThat(json.get("formatVersion").asInt()).isEqualTo(2);
        assertThat(json.get("deadBytes").asLong()).isPositive();
        assertThat(json.get("hintedBytes").asLong()).isEqualTo(json.get("dataBytes").asLong());
        assertThat(json.get("segments")).hasSize(TestStore.segments(dir));
        assertThat(json.get("indexBytes").asLong()).isPositive();
    }

    @Test
    void statsWorksBesideARunningWriter() throws IOException {
        Path dir = tmp.resolve("db");
        try (BitCask db = BitCask.open(dir, TestStore.PLAIN)) {
            db.put("written", utf8("while stats runs"));
            db.sync();
            Cli.Run r = ok(Cli.run("stats", dir.toString()));
            assertThat(r.out()).contains("keys        1").contains("a writer holds the directory");
            Cli.Run get = ok(Cli.run("get", dir.toString(), "written"));
            assertThat(get.out()).isEqualTo("while stats runs");
        }
    }

    /**
     * A damaged last record of an idle writer's newest segment looks like an append in progress, but its
     * bytes do not change: verify --live must call it damage, and dump --skip-corrupt must say what it lost.
     */
    @Test
    void besideAnIdleWriterADamagedLastRecordIsDamageNotAWriteInProgress() throws IOException {
        Path dir = tmp.resolve("db");
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().backend(Backend.FILE_CHANNEL).autoMerge(false).build())) {
            for (int i = 0; i < 20; i++) {
                db.put("key" + i, utf8("acknowledged value " + i));
            }
            db.sync();
            Path newest;
            try (Stream<Path> files = Files.list(dir)) {
                newest = files.filter(f -> f.getFileName().toString().endsWith(".data")).max(Path::compareTo)
                        .orElseThrow();
            }
            TestStore.flip(newest, Files.size(newest) - 3, 0x10);

            Cli.Run get = Cli.run("get", dir.toString(), "key19");
            assertThat(get.exit()).as(get.toString()).isNotZero();
            Cli.Run live = Cli.run("verify", "--live", dir.toString());
            assertThat(live.exit()).as(live.toString()).isEqualTo(1);
            assertThat(live.out()).contains("TORN_TAIL").contains("records are at risk").doesNotContain("no damage found");
            JsonNode report = JSON.readTree(Cli.run("verify", "--live", "--json", dir.toString()).stdout());
            assertThat(report.get("healthy").asBoolean()).isFalse();
            for (JsonNode f : report.get("findings")) {
                boolean torn = f.get("kind").asText().equals("TORN_TAIL");
                assertThat(f.get("inProgress").asBoolean()).as(f.toString()).isEqualTo(!torn);
            }

            Cli.Run dump = Cli.run("dump", "--skip-corrupt", dir.toString());
            assertThat(dump.exit()).as(dump.toString()).isEqualTo(1);
            assertThat(dump.stderr()).contains("skipping").contains("skipped 1 damaged range");
            assertThat(dump.out().lines()).hasSize(19);
        }
    }

    @Test
    void besideALiveWriterVerifyLiveIsAHealthCheckAndStatsCountsHintsAgainstTheData() throws IOException {
        Path dir = tmp.resolve("db");
        try (BitCask db = BitCask.open(dir, TestStore.PLAIN)) {
            for (int i = 0; i < 1000; i++) {
                db.put("key" + i, utf8("value " + i + " " + "z".repeat(80)));
            }
        }
        try (BitCask db = BitCask.open(dir, TestStore.PLAIN)) {
            // The hint of the close above lists all but what this writer appends, into a preallocated file.
            for (int i = 0; i < 20; i++) {
                db.put("more" + i, utf8("written while verify runs"));
            }
            db.sync();
            Cli.Run plain = Cli.run("verify", dir.toString());
            assertThat(plain.exit()).as(plain.toString()).isEqualTo(1);
            assertThat(plain.out()).contains("HINT_STALE");
            assertThat(plain.stderr()).contains("verify --live");

            Cli.Run live = ok(Cli.run("verify", "--live", dir.toString()));
            assertThat(live.out()).contains("HINT_STALE").contains("a write in progress")
                    .contains("no damage found; 1 finding is the live writer's work in progress");
            assertThat(live.stderr()).isEmpty();
            JsonNode report = JSON.readTree(ok(Cli.run("verify", "--live", "--json", dir.toString())).stdout());
            assertThat(report.get("clean").asBoolean()).isFalse();
            assertThat(report.get("healthy").asBoolean()).isTrue();
            assertThat(report.get("findings").get(0).get("inProgress").asBoolean()).isTrue();

            Cli.Run stats = ok(Cli.run("stats", dir.toString()));
            assertThat(stats.out()).containsPattern("they list 9\\d\\.\\d% of the data bytes")
                    .containsPattern("000000001\\* .* lists 9\\d\\.\\d%");
            JsonNode json = JSON.readTree(ok(Cli.run("stats", "--json", dir.toString())).stdout());
            long data = json.get("dataBytes").asLong();
            assertThat(json.get("hintedBytes").asLong()).isLessThan(data).isGreaterThan(data * 9 / 10);
        }
        Cli.Run closed = ok(Cli.run("verify", "--live", dir.toString()));
        assertThat(closed.stderr()).contains("no writer holds");
    }

    @Test
    void getPutAndDeleteInEachEncoding() throws Exception {
        String dir = tmp.resolve("db").toString();
        ok(Cli.run("put", "--create", dir, "greeting", "--value", "héllo"));
        assertThat(ok(Cli.run("get", dir, "greeting")).stdout()).isEqualTo(utf8("héllo"));

        byte[] binary = new byte[256];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }
        ok(Cli.run(binary, "put", dir, "binary"));
        assertThat(ok(Cli.run("get", dir, "binary")).stdout()).isEqualTo(binary);
        assertThat(ok(Cli.run("get", "--base64", dir, Base64.getEncoder().encodeToString(utf8("binary")))).out())
                .isEqualTo(Base64.getEncoder().encodeToString(binary) + "\n");

        ok(Cli.run("put", "--hex", dir, "00ff", "--value", "CAFE"));
        assertThat(ok(Cli.run("get", "--hex", dir, "00FF")).out()).isEqualTo("cafe\n");
        ok(Cli.run(utf8("3q2+7w==\n"), "put", "--base64", dir, "AP8="));
        assertThat(ok(Cli.run("get", "--hex", dir, "00ff")).out()).isEqualTo("deadbeef\n");

        ok(Cli.run("put", dir, "empty", "--value", ""));
        assertThat(ok(Cli.run("get", dir, "empty")).stdout()).isEmpty();

        ok(Cli.run("delete", dir, "greeting"));
        Cli.Run gone = Cli.run("get", dir, "greeting");
        assertThat(gone.exit()).isEqualTo(1);
        assertThat(gone.stderr()).contains("key not found: greeting");
        assertThat(Cli.run("delete", dir, "greeting").exit()).isEqualTo(1);

        ok(Cli.run("put", "--ttl", "7d", dir, "week", "--value", "long enough"));
        assertThat(ok(Cli.run("get", dir, "week")).out()).isEqualTo("long enough");
        ok(Cli.run("put", "--ttl", "1s", dir, "brief", "--value", "gone soon"));
        Thread.sleep(1100);
        assertThat(Cli.run("get", dir, "brief").exit()).as("expired").isEqualTo(1);
    }

    @Test
    void keysAreSortedAndFilteredByPrefixAndLimit() throws IOException {
        Path dir = tmp.resolve("db");
        try (BitCask db = BitCask.open(dir, TestStore.PLAIN)) {
            for (String k : List.of("user:3", "user:1", "order:9", "user:2", "a")) {
                db.put(k, utf8("v"));
            }
            db.put(new byte[] {(byte) 0xFF, 0x00}, utf8("binary key"));
            db.delete("user:2");
        }
        assertThat(ok(Cli.run("keys", dir.toString(), "--prefix", "user:")).out()).isEqualTo("user:1\nuser:3\n");
        assertThat(ok(Cli.run("keys", dir.toString(), "--limit", "2")).out()).isEqualTo("a\norder:9\n");
        assertThat(ok(Cli.run("keys", "--hex", dir.toString(), "--prefix", "ff")).out()).isEqualTo("ff00\n");
        assertThat(ok(Cli.run("keys", "--base64", dir.toString())).out().lines().toList())
                .containsExactly("YQ==", "b3JkZXI6OQ==", "dXNlcjox", "dXNlcjoz", "/wA=");
    }

    @Test
    void dumpThenLoadRoundTripsEveryByte() throws IOException {
        Path src = tmp.resolve("src");
        Map<String, byte[]> tricky = new HashMap<>();
        tricky.put("empty", new byte[0]);
        tricky.put("unicode ключ 🔑", utf8("значение ✓ \u2028 \"quoted\" \\ \n\t\u0000 end"));
        tricky.put("lone byte", new byte[] {(byte) 0xC3});
        tricky.put("surrogate as utf-8", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80});
        byte[] big = new byte[1 << 20];
        new java.util.Random(7).nextBytes(big);
        tricky.put("big random", big);
        try (BitCask db = BitCask.open(src, TestStore.PLAIN)) {
            tricky.forEach(db::put);
            db.put(new byte[] {0, 1, 2, (byte) 0x80}, utf8("binary key"));
            for (int i = 0; i < 3000; i++) {
                db.put("key" + i, utf8("value " + i + " " + "y".repeat(i % 120)));
            }
        }
        Cli.Run dump = ok(Cli.run("dump", src.toString()));
        assertThat(dump.stderr()).isEmpty();
        assertThat(new String(dump.stdout(), StandardCharsets.UTF_8).lines()).hasSize(3000 + tricky.size() + 1)
                .allSatisfy(line -> assertThat(line).startsWith("{\"key\":\"").endsWith("}"))
                .contains("{\"key\":\"lone byte\",\"value\":\"ww==\",\"valueEncoding\":\"base64\"}");

        Path copy = tmp.resolve("copy");
        Cli.Run load = ok(Cli.run(dump.stdout(), "load", "--create", copy.toString()));
        assertThat(load.out()).contains("loaded " + Reports.count(3000 + tricky.size() + 1) + " records");
        Map<ByteBuffer, ByteBuffer> original = contents(src);
        assertThat(contents(copy)).isEqualTo(original);
        assertThat(original.get(ByteBuffer.wrap(utf8("big random")))).isEqualTo(ByteBuffer.wrap(big));
        assertThat(sortedLines(ok(Cli.run("dump", copy.toString())).stdout())).isEqualTo(sortedLines(dump.stdout()));
    }

    @Test
    void dumpIntoHeadEndsQuietly() throws Exception {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 3000);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = System.getProperty("bitcask.jar", "target/bitcask.jar");
        Process p = new ProcessBuilder("bash", "-c", "'" + java + "' -jar '" + jar + "' dump '" + dir
                + "' | head -n 2; echo \"exit=${PIPESTATUS[0]}\"").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        assertThat(out.lines()).hasSize(3).last().isEqualTo("exit=0");
        assertThat(out).doesNotContain("Exception").doesNotContain("bitcask:");
    }

    @Test
    void dumpSkipCorruptSalvagesADamagedStoreThroughLoad() throws IOException {
        Path dir = tmp.resolve("db");
        Map<ByteBuffer, ByteBuffer> written = new HashMap<>();
        try (BitCask db = BitCask.open(dir, TestStore.PLAIN)) {
            for (int i = 0; i < 300; i++) {
                byte[] value = utf8("value of key" + i + " " + "w".repeat(i % 40));
                db.put("key" + i, value);
                written.put(ByteBuffer.wrap(utf8("key" + i)), ByteBuffer.wrap(value));
            }
        } // closed: the hint lists every record, the damaged one too
        Path data = TestStore.data(dir, 1);
        long at = new String(Files.readAllBytes(data), StandardCharsets.ISO_8859_1).indexOf("value of key150 ");
        assertThat(at).as("the middle record's value").isPositive();
        TestStore.flip(data, at + 3, 0x20);
        written.remove(ByteBuffer.wrap(utf8("key150")));
        Map<String, String> damaged = TestStore.fingerprint(dir);

        Cli.Run plain = Cli.run("dump", dir.toString());
        assertThat(plain.exit()).as(plain.toString()).isEqualTo(1);
        assertThat(plain.stderr()).startsWith("bitcask: ").contains("CRC mismatch").contains("dump --skip-corrupt");

        Cli.Run salvage = Cli.run("dump", "--skip-corrupt", dir.toString());
        assertThat(salvage.exit()).as(salvage.toString()).isEqualTo(1);
        assertThat(salvage.stderr().lines().toList()).as(salvage.toString()).hasSize(2)
                .first().asString().startsWith("bitcask: warning: skipping 000000001.data CORRUPT_RECORDS at offset ");
        assertThat(salvage.stderr()).contains("dumped 299 records and skipped 1 damaged range of " + dir.toAbsolutePath());
        assertThat(salvage.out().lines()).hasSize(299).noneMatch(line -> line.contains("\"key150\""));

        Path copy = tmp.resolve("copy");
        ok(Cli.run(salvage.stdout(), "load", "--create", copy.toString()));
        assertThat(contents(copy)).isEqualTo(written);
        assertThat(TestStore.fingerprint(dir)).as("the damaged store is left as it was").isEqualTo(damaged);
    }

    /** 2,000 records loaded as {@code bitcask load} does, in atomic batches of 1,000, into one segment. */
    private Path loaded() {
        Path dir = tmp.resolve("db");
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            in.append("{\"key\":\"").append(TestStore.batchKey(i)).append("\",\"value\":\"")
                    .append(new String(TestStore.batchValue(i), StandardCharsets.UTF_8)).append("\"}\n");
        }
        ok(Cli.run(utf8(in.toString()), "load", "--create", dir.toString()));
        return dir;
    }

    /**
     * One byte flipped in the middle of the only segment of a store that {@code bitcask load} wrote:
     * the damaged batch's other 999 records each check, so a salvage writes them out, marked with the
     * batch they came from, and the lines load back.
     */
    @Test
    void dumpSkipCorruptWritesOutEveryRecordThatChecksAndMarksThoseOfADamagedBatch() throws IOException {
        Path dir = loaded();
        Path data = TestStore.data(dir, 1);
        TestStore.flip(data, Files.size(data) / 2, 0x5A);

        Cli.Run salvage = Cli.run("dump", "--skip-corrupt", dir.toString());
        assertThat(salvage.exit()).as(salvage.toString()).isEqualTo(1);
        List<String> lines = salvage.out().lines().toList();
        assertThat(lines).as(salvage.stderr()).hasSizeGreaterThanOrEqualTo(1999);
        String batch = "000000001.data: the damaged batch at offset 64";
        assertThat(lines.stream().filter(l -> l.endsWith(",\"salvaged\":\"" + batch + "\"}"))).hasSize(999);
        assertThat(salvage.stderr()).contains("999 records of the dump came from batches that open leaves out whole")
                .contains("999 from " + batch);

        Path copy = tmp.resolve("copy");
        ok(Cli.run(salvage.stdout(), "load", "--create", copy.toString()));
        assertThat(contents(copy)).hasSize(lines.size());
    }

    /**
     * A read-write open of such a store without its hint cuts the damaged last batch off: it keeps the
     * bytes beside the segment, verify names the file, and a salvage reads the records in it.
     */
    @Test
    void theTailAReadWriteOpenCutsIsKeptAndASalvageReadsIt() throws IOException {
        Path dir = loaded();
        Path data = TestStore.data(dir, 1);
        TestStore.flip(data, Files.size(data) * 3 / 4, 0x5A);
        Files.delete(TestStore.hint(dir, 1));

        Cli.Run put = ok(Cli.run("put", dir.toString(), "after", "--value", "v"));
        assertThat(put.stderr()).contains("000000001.data.tail-120096").contains("kept");
        assertThat(dir.resolve("000000001.data.tail-120096")).exists();
        Cli.Run verify = Cli.run("verify", dir.toString());
        assertThat(verify.out()).as(verify.toString()).contains("000000001.data.tail-120096  KEPT_TAIL")
                .contains("999 records in them check on their own");

        Cli.Run salvage = Cli.run("dump", "--skip-corrupt", dir.toString());
        assertThat(salvage.exit()).as(salvage.toString()).isEqualTo(1);
        assertThat(salvage.out().lines()).hasSize(2000)
                .filteredOn(l -> l.contains("\"salvaged\":\"000000001.data.tail-120096: the torn or damaged batch at offset 120096\""))
                .hasSize(999);
        assertThat(salvage.stderr()).contains("reading 000000001.data.tail-120096 KEPT_TAIL");
    }

    @Test
    void aSalvageThatSkipsADeleteSaysADeletedKeyMayReappear() throws IOException {
        Path dir = tmp.resolve("db");
        try (BitCask db = BitCask.open(dir, TestStore.PLAIN)) {
            db.put("gone", utf8("the value before the delete"));
            for (int i = 0; i < 100; i++) {
                db.put("key" + i, utf8("value " + i));
            }
            db.delete("gone");
            for (int i = 100; i < 200; i++) {
                db.put("key" + i, utf8("value " + i));
            }
        }
        Path data = TestStore.data(dir, 1);
        long tombstone = new String(Files.readAllBytes(data), StandardCharsets.ISO_8859_1).lastIndexOf("gone");
        assertThat(tombstone).as("the delete's key").isPositive();
        TestStore.flip(data, tombstone + 1, 0x20);

        Cli.Run salvage = Cli.run("dump", "--skip-corrupt", dir.toString());
        assertThat(salvage.exit()).as(salvage.toString()).isEqualTo(1);
        assertThat(salvage.out()).as("the deleted key is back").contains("\"gone\"");
        assertThat(salvage.stderr()).contains("skipped 1 damaged range").contains("a key deleted there may reappear");
    }

    @Test
    void loadStopsAtABadLineAfterWritingEveryLineBeforeIt() throws IOException {
        Path one = tmp.resolve("one");
        assertThat(ok(Cli.run(utf8("{\"key\":\"a\",\"value\":\"1\"}\n"), "load", "--create", one.toString())).out())
                .startsWith("loaded 1 record into ");
        Path dir = tmp.resolve("db");
        String input = "{\"key\":\"a\",\"value\":\"1\"}\n"
                + "{\"key\":\"b\",\"value\":\"AAE=\",\"valueEncoding\":\"base64\"}\n"
                + "\n"
                + "{\"key\":\"c\",\"value\":\"3\"}\n"
                + "{\"key\":\"d\",\"value\":\"4\",\"ttl\":\"1h\"}\n"
                + "{\"key\":\"e\",\"value\":\"5\"}\n";
        Cli.Run r = Cli.run(utf8(input), "load", "--create", dir.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.stderr()).contains("stdin line 5").contains("unknown field \"ttl\"").contains("the 3 records before it were loaded");
        assertThat(contents(dir)).containsOnlyKeys(ByteBuffer.wrap(utf8("a")), ByteBuffer.wrap(utf8("b")), ByteBuffer.wrap(utf8("c")));
        assertThat(contents(dir).get(ByteBuffer.wrap(utf8("b")))).isEqualTo(ByteBuffer.wrap(new byte[] {0, 1}));

        Cli.Run broken = Cli.run(utf8("{\"key\":\"x\",\"value\":\"1\"}\n{\"key\": oops}\n"), "load", dir.toString());
        assertThat(broken.exit()).isEqualTo(1);
        assertThat(broken.stderr()).contains("stdin line 2");
        Cli.Run badBase64 = Cli.run(utf8("{\"key\":\"y\",\"value\":\"@@\",\"valueEncoding\":\"base64\"}\n"), "load", dir.toString());
        assertThat(badBase64.exit()).isEqualTo(1);
        assertThat(badBase64.stderr()).contains("stdin line 1").contains("not valid base64");
    }

    @Test
    void mergeReclaimsDeadBytesAndBackupMakesAnOpenableCopy() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 1500);
        byte[] before = ok(Cli.run("dump", dir.toString())).stdout();
        assertThat(JSON.readTree(ok(Cli.run("stats", "--json", dir.toString())).stdout()).get("deadBytes").asLong()).isPositive();

        Cli.Run merge = ok(Cli.run("merge", dir.toString()));
        assertThat(merge.out()).startsWith("merged ");
        assertThat(JSON.readTree(ok(Cli.run("stats", "--json", dir.toString())).stdout()).get("deadBytes").asLong()).isZero();
        assertThat(ok(Cli.run("merge", dir.toString())).out()).contains("nothing to merge");
        assertThat(sortedLines(ok(Cli.run("dump", dir.toString())).stdout())).isEqualTo(sortedLines(before));

        Path target = tmp.resolve("backup");
        assertThat(ok(Cli.run("backup", dir.toString(), target.toString())).out()).startsWith("backed up ");
        assertThat(ok(Cli.run("verify", target.toString())).out()).contains("no damage found");
        assertThat(sortedLines(ok(Cli.run("dump", target.toString())).stdout())).isEqualTo(sortedLines(before));
        Cli.Run again = Cli.run("backup", dir.toString(), target.toString());
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.stderr()).contains("not empty");
    }

    @Test
    void backupCopiesSoABadByteInTheCopyLeavesTheStoreCleanAndACheckpointSharesTheOlderSegments() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 1500);
        int segments = TestStore.segments(dir);
        assertThat(segments).isGreaterThan(2);
        Path backup = tmp.resolve("backup");
        assertThat(ok(Cli.run("backup", dir.toString(), backup.toString())).out()).startsWith("backed up ").contains("records checked");
        for (int id = 1; id <= segments; id++) {
            assertThat(Files.isSameFile(TestStore.data(dir, id), TestStore.data(backup, id))).as("segment %d shared", id).isFalse();
        }
        TestStore.flip(TestStore.data(backup, 1), 70, 0x01); // inside the first record
        assertThat(ok(Cli.run("verify", dir.toString())).out()).contains("no damage found");
        assertThat(Cli.run("verify", backup.toString()).exit()).isEqualTo(1);

        Path checkpoint = tmp.resolve("checkpoint");
        assertThat(ok(Cli.run("backup", "--checkpoint", dir.toString(), checkpoint.toString())).out()).startsWith("checkpoint of ");
        if (linksAllowed()) {
            for (int id = 1; id < segments; id++) {
                assertThat(Files.isSameFile(TestStore.data(dir, id), TestStore.data(checkpoint, id))).as("segment %d shared", id).isTrue();
            }
        }
        assertThat(Files.isSameFile(TestStore.data(dir, segments), TestStore.data(checkpoint, segments))).as("the newest shared").isFalse();
        assertThat(ok(Cli.run("verify", checkpoint.toString())).out()).contains("no damage found");
    }

    @Test
    void backupOfADamagedStoreListsTheBadBytesAndExitsOne() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 1500);
        TestStore.flip(TestStore.data(dir, 1), 70, 0x01); // the first record; open reads the segment's hint, not the record
        Path backup = tmp.resolve("backup");
        Cli.Run r = Cli.run("backup", dir.toString(), backup.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).startsWith("backed up ").contains("000000001.data  CORRUPT_RECORDS at offset 64")
                .contains("bitcask verify");
    }

    /** Whether the temporary directory's file system makes hard links. */
    private boolean linksAllowed() throws IOException {
        Path probe = Files.writeString(tmp.resolve("probe"), "x");
        try {
            Files.createLink(tmp.resolve("probe-link"), probe);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Test
    void verifyOnACleanStoreExitsZero() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 300);
        Cli.Run r = ok(Cli.run("verify", dir.toString()));
        assertThat(r.out()).contains("no damage found");
        assertThat(r.out() + r.stderr()).as("no progress bar into a pipe").doesNotContain("\r");
    }
}
