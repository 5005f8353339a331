package io.caskbench.shm.msg;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The Java peer process: {@code PeerMain shm <file> <echo|sink> <full|ends> <maxSeconds> <stallMillis>}
 * or {@code PeerMain udp|udp-spin <echo|sink> <full|ends> <maxSeconds> <stallMillis>}; msg_peer.c takes
 * the same arguments.
 *
 * <p>It never outlives its parent: end of stdin (the parent closed it or died) and a hard lifetime cap
 * both halt the JVM. Exit codes: 0 done, 1 failed, 2 usage, 3 parent gone, 4 lifetime exceeded.
 */
public final class PeerMain {

    private PeerMain() {
    }

    /** Entry point; see the class comment for the arguments. */
    public static void main(String[] args) {
        PrintStream out = System.out;
        try {
            String transport = args[0].toLowerCase(Locale.ROOT);
            int i = transport.equals("shm") ? 2 : 1;
            boolean echo = mode(args[i], "echo", "sink");
            boolean full = mode(args[i + 1], "full", "ends");
            guard(Integer.parseInt(args[i + 2]));
            long stallMillis = Long.parseLong(args[i + 3]);
            Report report;
            if (transport.equals("shm")) {
                report = JavaPeer.serveShm(Path.of(args[1]), echo, full, stallMillis, out);
            } else if (transport.equals("udp") || transport.equals("udp-spin")) {
                report = JavaPeer.serveUdp(echo, full, transport.equals("udp-spin"), stallMillis, out);
            } else {
                throw new IllegalArgumentException("transport must be shm, udp or udp-spin: " + args[0]);
            }
            out.println(report.line());
            out.flush();
            System.exit(0);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            System.err.println("usage: PeerMain shm <file> <echo|sink> <full|ends> <maxSeconds> <stallMillis>");
            System.err.println("       PeerMain udp|udp-spin <echo|sink> <full|ends> <maxSeconds> <stallMillis>: " + e);
            System.exit(2);
        } catch (PeerStalledException e) {
            // The client went quiet: an expected way for a run to end, so one line and no stack trace.
            System.err.println("peer stopped: " + e.getMessage());
            System.exit(1);
        } catch (IOException | RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static boolean mode(String arg, String yes, String no) {
        if (arg.equals(yes) || arg.equals(no)) {
            return arg.equals(yes);
        }
        throw new IllegalArgumentException("expected " + yes + " or " + no + ": " + arg);
    }

    /** Daemon threads that halt this JVM when the parent goes away or the lifetime cap passes. */
    private static void guard(int maxSeconds) {
        Thread parent = new Thread(() -> {
            try {
                InputStream in = System.in;
                while (in.read() >= 0) {
                    // the parent never writes; we only wait for the end of the stream
                }
            } catch (IOException ignored) {
                // a broken pipe means the same as end of stream
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watch");
        Thread cap = new Thread(() -> {
            try {
                Thread.sleep(maxSeconds * 1000L);
                System.err.println("PeerMain: lifetime of " + maxSeconds + " s exceeded");
                Runtime.getRuntime().halt(4);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "lifetime-cap");
        parent.setDaemon(true);
        cap.setDaemon(true);
        parent.start();
        cap.start();
    }
}
