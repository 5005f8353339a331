package io.caskbench.cli;

import io.caskbench.bitcask.BitCask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input gets a message that says what is wrong, and exit code 2 for bad usage, 1 for a failure. */
class ErrorsIT {

    /** Every command with its arguments after DIR. */
    private static final List<List<String>> COMMANDS = List.of(List.of("stats"), List.of("verify"), List.of("repair"),
            List.of("get", "k"), List.of("delete", "k"), List.of("keys"), List.of("dump"), List.of("merge"),
            List.of("backup", "/nonexistent-target"), List.of("put", "k", "--value", "v"), List.of("load"));

    @TempDir
    Path tmp;

    private static String[] command(List<String> cmd, Path dir) {
        String[] args = new String[cmd.size() + 1];
        args[0] = cmd.get(0);
        args[1] = dir.toString();
        for (int i = 1; i < cmd.size(); i++) {
            args[i + 1] = cmd.get(i);
        }
        return args;
    }

    private static Cli.Run expect(int exit, String message, String... args) {
        Cli.Run r = Cli.run(args);
        assertThat(r.exit()).as(r.toString()).isEqualTo(exit);
        assertThat(r.stderr()).as(r.toString()).contains(message);
        return r;
    }

    @Test
    void aMissingDirectoryIsBadUsage() {
        Path missing = tmp.resolve("missing");
        for (List<String> cmd : COMMANDS) {
            expect(2, "no such directory: " + missing, command(cmd, missing));
        }
        assertThat(Files.exists(missing)).as("nothing created without --create").isFalse();
    }

    @Test
    void aDirectoryWithoutAStoreIsBadUsage() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("notes.txt"), "not a store");
        for (List<String> cmd : COMMANDS) {
            expect(2, "is not a BitCask store", command(cmd, empty));
        }
        expect(2, "holds other files", "put", "--create", other.toString(), "k", "--value", "v");
        Path file = Files.writeString(tmp.resolve("file"), "x");
        expect(2, "not a directory", "verify", file.toString());
    }

    @Test
    void aStoreOfAnotherFormatVersionIsNamedWithBothVersions() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 300);
        VerifyRepairIT.writeVersion(TestStore.data(dir, 1), 3);
        for (String cmd : List.of("stats", "keys", "dump")) {
            expect(1, "format version 3; this version of bitcask-core reads version 2", cmd, dir.toString());
        }
        expect(1, "format version 3; this version of bitcask-core reads version 2", "get", dir.toString(), "key1");
        Cli.Run verify = Cli.run("verify", dir.toString());
        assertThat(verify.exit()).isEqualTo(1);
        assertThat(verify.out()).contains("WRONG_VERSION").contains("format version 3; this release reads version 2");
    }

    @Test
    void aStoreHeldByALiveWriterRefusesEveryWriteButNotReads() throws IOException {
        Path dir = tmp.resolve("db");
        try (BitCask db = BitCask.open(dir, TestStore.PLAIN)) {
            db.put("k", "v".getBytes(StandardCharsets.UTF_8));
            db.sync();
            for (List<String> cmd : List.of(List.of("put", "k", "--value", "w"), List.of("delete", "k"), List.of("load"),
                    List.of("merge"), List.of("backup", tmp.resolve("b").toString()), List.of("repair"), List.of("repair", "--apply"))) {
                Cli.Run r = expect(1, "is locked by another store", command(cmd, dir));
                assertThat(r.stderr()).contains("held by pid " + ProcessHandle.current().pid());
            }
            assertThat(Cli.run("get", dir.toString(), "k").out()).isEqualTo("v");
            Cli.Run verify = Cli.run("verify", dir.toString());
            assertThat(verify.stderr()).contains("warning: a writer holds");
        }
    }

    @Test
    void aBadKeyEncodingIsBadUsage() throws IOException {
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 10);
        expect(2, "KEY is not valid hex", "get", "--hex", dir.toString(), "zz");
        expect(2, "KEY is not valid hex", "delete", "--hex", dir.toString(), "abc");
        expect(2, "KEY is not valid base64", "get", "--base64", dir.toString(), "@@@");
        expect(2, "VALUE is not valid hex", "put", "--hex", dir.toString(), "00", "--value", "xyz");
        expect(2, "--prefix is not valid base64", "keys", "--base64", dir.toString(), "--prefix", "!");
        expect(2, "mutually exclusive", "get", "--hex", "--base64", dir.toString(), "00");
        expect(2, "not a duration", "put", "--ttl", "soon", dir.toString(), "k", "--value", "v");
    }

    @Test
    void otherBadUsage() {
        expect(2, "Usage: bitcask", new String[0]);
        for (Cli.Run r : List.of(expect(2, "Unmatched argument", "frobnicate"),
                expect(2, "Unknown option", "verify", "--fast", tmp.toString()),
                expect(2, "Missing required parameter", "get", tmp.toString()),
                expect(2, "mutually exclusive", "repair", "--apply", "--dry-run", tmp.toString()),
                expect(2, "Did you mean", "verfy", tmp.toString()))) {
            assertThat(r.stderr()).as("picocli's own errors read like every other message").startsWith("bitcask: ")
                    .contains("Try 'bitcask").doesNotContain("Usage:");
        }
        assertThat(Cli.run("verify", "--fast", tmp.toString()).stderr()).contains("Try 'bitcask verify --help' for the usage.");
    }
}
