package io.caskbench.raft.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line refuses bad usage with its reason and the usage text. */
class RaftMainTest {

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RaftMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void badUsageExitsWithTwoAndSaysWhy() {
        assertThat(run()).satisfies(r -> assertThat(r[0]).isEqualTo("2"));
        String[] noPeers = run("server", "--id", "n1", "--dir", "x");
        assertThat(noPeers[0]).isEqualTo("2");
        assertThat(noPeers[2]).contains("--peers is required").contains("usage:");
        String[] badPeer = run("get", "--peers", "n1=nowhere", "k");
        assertThat(badPeer[0]).isEqualTo("2");
        assertThat(badPeer[2]).contains("id=host:port");
        String[] unknown = run("frobnicate", "--peers", "n1=127.0.0.1:1");
        assertThat(unknown[2]).contains("unknown command frobnicate");
        String[] arity = run("put", "--peers", "n1=127.0.0.1:1", "only-a-key");
        assertThat(arity[0]).isEqualTo("2");
        assertThat(arity[2]).contains("put takes 2 argument(s)");
        String[] idNotPeer = run("server", "--id", "n9", "--peers", "n1=127.0.0.1:1", "--dir", "x");
        assertThat(idNotPeer[2]).contains("no peer n9");
    }
}
