package io.caskbench.raft.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line: help and version exit 0, bad usage exits 2 with its reason and where the usage is. */
class RaftMainTest {

    /** What one run printed and returned. */
    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RaftMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpExitsZeroForTheRootAndEveryCommand() {
        Run root = run("--help");
        assertThat(root.status()).isZero();
        assertThat(root.out()).contains("Usage: bitcask-raft").contains("server").contains("put").contains("get")
                .contains("delete").contains("Exit codes");
        assertThat(run("-h").status()).isZero();
        assertThat(run("help", "server").status()).isZero();
        for (String command : new String[] {"server", "put", "get", "delete"}) {
            Run help = run(command, "--help");
            assertThat(help.status()).as(command + " --help").isZero();
            assertThat(help.out()).as(command + " --help").contains("Usage: bitcask-raft " + command).contains("--peers");
        }
        Run server = run("server", "--help");
        assertThat(server.out()).contains("--id").contains("--dir").contains("--groups").contains("--snapshot-every")
                .contains("--log-segment-bytes").contains("--election-timeout-ms").contains("--http")
                .contains("--tls-key").contains("--tls-cert").contains("--tls-ca");
        assertThat(run("get", "--help").out()).contains("--stale-from").contains("--timeout-ms");
    }

    @Test
    void versionPrintsTheVersion() {
        Run version = run("--version");
        assertThat(version.status()).isZero();
        assertThat(version.out()).startsWith("bitcask-raft ");
    }

    @Test
    void badUsageExitsWithTwoAndSaysWhy() {
        Run none = run();
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).contains("Usage: bitcask-raft");

        Run noPeers = run("server", "--id", "n1", "--dir", "x");
        assertThat(noPeers.status()).isEqualTo(2);
        assertThat(noPeers.err()).startsWith("bitcask-raft: ").contains("--peers")
                .contains("Try 'bitcask-raft server --help' for the usage.");
        assertThat(run("get", "k").err()).contains("--peers");

        Run badPeer = run("get", "--peers", "n1=nowhere", "k");
        assertThat(badPeer.status()).isEqualTo(2);
        assertThat(badPeer.err()).contains("id=host:port").contains("Try 'bitcask-raft get --help'");

        Run unknown = run("frobnicate", "--peers", "n1=127.0.0.1:1");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("frobnicate");

        Run arity = run("put", "--peers", "n1=127.0.0.1:1", "only-a-key");
        assertThat(arity.status()).isEqualTo(2);
        assertThat(arity.err()).contains("VALUE");

        Run idNotPeer = run("server", "--id", "n9", "--peers", "n1=127.0.0.1:1", "--dir", "x");
        assertThat(idNotPeer.status()).isEqualTo(2);
        assertThat(idNotPeer.err()).contains("no peer n9");

        Run badNumber = run("server", "--id", "n1", "--peers", "n1=127.0.0.1:1", "--dir", "x", "--groups", "many");
        assertThat(badNumber.status()).isEqualTo(2);
        assertThat(badNumber.err()).contains("--groups");

        Run halfTls = run("get", "--peers", "n1=127.0.0.1:1", "--tls-key", "k.pem", "k");
        assertThat(halfTls.status()).isEqualTo(2);
        assertThat(halfTls.err()).contains("--tls-cert");
    }

    @Test
    void aRequestNoMajorityAnswersFailsWithOne() {
        Run get = run("get", "--peers", "n1=127.0.0.1:1", "--timeout-ms", "300", "k");
        assertThat(get.status()).isEqualTo(1);
        assertThat(get.err()).startsWith("bitcask-raft: ").contains("no majority answered");
    }
}
