package io.caskbench.shm.msg;

import io.caskbench.shm.Backing;
import io.caskbench.shm.NativeBuild;
import io.caskbench.shm.Unmapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * One client, one peer process, one transport: start it, drive round trips or one-way messages, stop
 * it and read the peer's report. Used by {@link Messaging} to measure and by the tests to check that
 * no message is lost or torn.
 */
public final class Session implements AutoCloseable {

    /** How the two processes talk. */
    public enum Transport {
        /** A mapped file in /dev/shm with the rings of {@link RingLayout}. */
        SHM,
        /** Datagrams on 127.0.0.1 over blocking sockets: a waiting side sleeps in the kernel. */
        UDP,
        /**
         * Datagrams on 127.0.0.1 over non-blocking sockets, polled with the same spin-yield-nap wait as
         * shared memory ({@link Idle}), so the two compare transports, not ways of waiting.
         */
        UDP_SPIN;

        /** Lower-case name with a dash, as used in result parameters and on the peer's command line. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** What the peer process is. */
    public enum Peer {
        /** {@link PeerMain} in a fresh JVM. */
        JAVA,
        /** msg_peer.c, compiled by {@link NativeBuild}. */
        C;

        /** Lower-case name, as used in result parameters. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Largest payload (bytes) a session carries; one file layout serves 64 B and 4 KiB. */
    public static final int MAX_PAYLOAD = 4096;
    /** Slots per ring: room for a burst of one-way messages. */
    public static final int SLOTS = 64;
    /** A wait longer than this means the other side is gone (generous: this box can reach load 1000). */
    public static final long STALL_MILLIS = 30_000;
    /** Hard lifetime of a peer process, whatever happens. */
    public static final int PEER_MAX_SECONDS = 600;
    /** How long a peer may take to start (a cold JVM on a busy machine). */
    private static final long START_MILLIS = 60_000;

    private final PeerProcess peer;
    private final ClientLink link;
    private final List<String> command;
    private long seq;

    private Session(PeerProcess peer, ClientLink link, List<String> command) {
        this.peer = peer;
        this.link = link;
        this.command = command;
    }

    /**
     * Starts a peer and connects to it.
     *
     * @param echo true for an echo peer (round trips), false for a sink (one-way messages)
     * @param fullCheck whether both sides check every payload word (tests) or only the ends (measuring)
     */
    public static Session start(Transport transport, Peer peerKind, boolean echo, boolean fullCheck,
                                NativeBuild build) throws IOException {
        List<String> cmd = new ArrayList<>(peerKind == Peer.C
                ? List.of(build.program(NativeBuild.MSG_PEER).toString())
                : javaCommand());
        cmd.add(transport.label());
        ShmFile file = transport == Transport.SHM ? ShmFile.create(Backing.shmDir(), SLOTS, MAX_PAYLOAD) : null;
        if (file != null) {
            cmd.add(file.path().toString());
        }
        cmd.addAll(List.of(echo ? "echo" : "sink", fullCheck ? "full" : "ends", Integer.toString(PEER_MAX_SECONDS),
                Long.toString(STALL_MILLIS)));
        PeerProcess process = null;
        try {
            process = PeerProcess.start(cmd);
            String ready = process.awaitLine("READY", START_MILLIS);
            ClientLink link = file != null
                    ? new ShmClient(file, STALL_MILLIS, fullCheck)
                    : new UdpClient(Integer.parseInt(ready.substring("READY ".length()).trim()), MAX_PAYLOAD,
                            STALL_MILLIS, fullCheck, transport == Transport.UDP_SPIN);
            return new Session(process, link, cmd);
        } catch (IOException | RuntimeException e) {
            if (process != null) {
                process.close();
            }
            if (file != null) {
                file.close();
            }
            throw e;
        }
    }

    private static List<String> javaCommand() {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-XX:+UseSerialGC"));
        cmd.addAll(Unmapper.quietFlags());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), PeerMain.class.getName()));
        return cmd;
    }

    /** The peer's command line, for result files. */
    public List<String> command() {
        return command;
    }

    /**
     * Makes up to {@code count} round trips of {@code length}-byte messages, stopping early once
     * {@code capMillis} have passed; reports each round trip's nanoseconds to {@code rtt}.
     *
     * @return round trips made
     */
    public int roundTrips(int count, int length, long capMillis, LongConsumer rtt) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(capMillis);
        int i = 0;
        for (; i < count; i++) {
            if ((i & 255) == 255 && System.nanoTime() > deadline) {
                break;
            }
            long t0 = System.nanoTime();
            link.roundTrip(seq, length);
            long t1 = System.nanoTime();
            seq++;
            rtt.accept(t1 - t0);
        }
        return i;
    }

    /**
     * Sends up to {@code count} one-way messages (fewer once {@code capMillis} have passed) and waits
     * until the sink has taken them all.
     *
     * @return messages sent
     */
    public int oneWay(int count, int length, long capMillis) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(capMillis);
        int i = 0;
        for (; i < count; i++) {
            if ((i & 255) == 255 && System.nanoTime() > deadline) {
                break;
            }
            link.post(seq++, length);
        }
        link.drain(seq);
        return i;
    }

    /** Data messages sent so far. */
    public long sent() {
        return seq;
    }

    /** Sends the stop message and returns the peer's report once it has exited. */
    public Report stop() throws IOException {
        link.stop(seq);
        try {
            return peer.awaitReport(2 * STALL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Ends the peer (if still running) and releases the transport. */
    @Override
    public void close() throws IOException {
        try {
            peer.close();
        } finally {
            link.close();
        }
    }
}
