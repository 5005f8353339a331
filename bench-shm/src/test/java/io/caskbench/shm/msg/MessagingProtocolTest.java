package io.caskbench.shm.msg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.caskbench.shm.Backing;
import io.caskbench.shm.NativeBuild;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * No message lost, duplicated, reordered or torn: every payload word is checked on both sides
 * ("full" mode), over at least a million messages per peer, with real processes. Counts only, no
 * timing. Java-to-C cases are skipped when gcc is missing.
 */
class MessagingProtocolTest {

    private static final int MILLION = 1_000_000;
    private static final long NO_CAP = TimeUnit.MINUTES.toMillis(10);

    /** Two threads of one JVM: the protocol itself, without process start-up; fewer messages suffice. */
    @Test
    void ringBetweenTwoThreadsLosesAndTearsNothing() throws Exception {
        int messages = 200_000;
        ShmFile file = ShmFile.create(Backing.shmDir(), 8, Session.MAX_PAYLOAD); // few slots: wraps often
        try (ShmClient client = new ShmClient(file, Session.STALL_MILLIS, true)) {
            PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
            CompletableFuture<Report> sink = CompletableFuture.supplyAsync(() -> {
                try {
                    return JavaPeer.serveShm(file.path(), false, true, Session.STALL_MILLIS, quiet);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            for (long seq = 0; seq < messages; seq++) {
                client.post(seq, seq % 3 == 0 ? 4096 : 64);
            }
            client.stop(messages);

            assertThat(sink.get(5, TimeUnit.MINUTES)).isEqualTo(new Report(messages, 0, 0));
        }
        assertThat(Files.exists(file.path())).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Session.Peer.class)
    void shmOneWayMillionMessages(Session.Peer peer) throws Exception {
        assumePeer(peer);
        try (Session s = Session.start(Session.Transport.SHM, peer, false, true, NativeBuild.get())) {
            assertThat(s.oneWay(MILLION, 64, NO_CAP)).isEqualTo(MILLION);
            assertThat(s.oneWay(20_000, 4096, NO_CAP)).isEqualTo(20_000);
            assertThat(s.stop()).isEqualTo(new Report(MILLION + 20_000, 0, 0));
        }
    }

    @ParameterizedTest
    @EnumSource(Session.Peer.class)
    void shmRoundTripsEchoIntact(Session.Peer peer) throws Exception {
        assumePeer(peer);
        try (Session s = Session.start(Session.Transport.SHM, peer, true, true, NativeBuild.get())) {
            long[] count = new long[1];
            assertThat(s.roundTrips(20_000, 64, NO_CAP, ns -> count[0]++)).isEqualTo(20_000);
            assertThat(s.roundTrips(5_000, 4096, NO_CAP, ns -> count[0]++)).isEqualTo(5_000);
            assertThat(count[0]).isEqualTo(25_000);
            assertThat(s.stop()).isEqualTo(new Report(25_000, 0, 0));
        }
    }

    @ParameterizedTest
    @EnumSource(Session.Peer.class)
    void udpDeliversInOrderWithinTheWindow(Session.Peer peer) throws Exception {
        assumePeer(peer);
        // Blocking sockets, and non-blocking ones that both sides poll.
        for (Session.Transport udp : List.of(Session.Transport.UDP, Session.Transport.UDP_SPIN)) {
            try (Session s = Session.start(udp, peer, false, true, NativeBuild.get())) {
                assertThat(s.oneWay(100_000, 64, NO_CAP)).isEqualTo(100_000);
                assertThat(s.oneWay(5_000, 4096, NO_CAP)).isEqualTo(5_000);
                assertThat(s.stop()).as("%s", udp).isEqualTo(new Report(105_000, 0, 0));
            }
            try (Session s = Session.start(udp, peer, true, true, NativeBuild.get())) {
                assertThat(s.roundTrips(5_000, 4096, NO_CAP, ns -> { })).isEqualTo(5_000);
                assertThat(s.roundTrips(5_000, 64, NO_CAP, ns -> { })).isEqualTo(5_000);
                assertThat(s.stop()).as("%s", udp).isEqualTo(new Report(10_000, 0, 0));
            }
        }
    }

    @Test
    void javaPeerGivesUpWhenTheClientStopsTalking(@TempDir Path logs) throws Exception {
        Path stderr = logs.resolve("peer-stderr.txt");
        try (ShmFile file = ShmFile.create(Backing.shmDir(), 8, 64);
             PeerProcess peer = PeerProcess.start(javaPeer(file, "500"), ProcessBuilder.Redirect.to(stderr.toFile()))) {
            peer.awaitLine("READY", 60_000);
            assertThat(peer.awaitExit(60_000)).as("exit code after a 500 ms stall").isEqualTo(1);
        }
        // An expected way to stop, said in one line: a stack trace would read as a bug. (The JVM may add
        // its own warnings, such as JDK 23+'s about sun.misc.Unsafe.)
        assertThat(Files.readAllLines(stderr))
                .contains("peer stopped: no progress for 500 ms while waiting for a request")
                .noneMatch(line -> line.startsWith("\tat ") || line.contains("Exception"));
    }

    @Test
    void javaPeerExitsWhenItsParentGoesAway() throws Exception {
        try (ShmFile file = ShmFile.create(Backing.shmDir(), 8, 64);
             PeerProcess peer = PeerProcess.start(javaPeer(file, "600000"))) {
            peer.awaitLine("READY", 60_000);
            peer.closeInput();
            assertThat(peer.awaitExit(60_000)).as("exit code at end of stdin").isEqualTo(3);
        }
    }

    private static List<String> javaPeer(ShmFile file, String stallMillis) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), PeerMain.class.getName(), "shm", file.path().toString(),
                "sink", "full", "120", stallMillis);
    }

    private static void assumePeer(Session.Peer peer) {
        if (peer == Session.Peer.C) {
            NativeBuild build = NativeBuild.get();
            assumeTrue(build.available(), () -> "Java-to-C skipped: " + build.problem().orElse(""));
        }
    }
}
