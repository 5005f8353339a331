package io.caskbench.shm.msg;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A peer process (Java or C) and its stdout lines. Its stdin stays open, unused, for its whole life:
 * the Java peer exits at end of stdin, so closing it (or this JVM dying) stops the peer.
 */
final class PeerProcess implements AutoCloseable {

    private static final String EOF = "\u0000EOF";

    private final List<String> command;
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private PeerProcess(List<String> command, ProcessBuilder.Redirect stderr) throws IOException {
        this.command = command;
        this.process = new ProcessBuilder(command).redirectError(stderr).start();
        Thread reader = new Thread(this::pump, "peer-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code command}; its stderr goes to this JVM's. */
    static PeerProcess start(List<String> command) throws IOException {
        return start(command, ProcessBuilder.Redirect.INHERIT);
    }

    /** Starts {@code command} with its stderr sent to {@code stderr}. */
    static PeerProcess start(List<String> command, ProcessBuilder.Redirect stderr) throws IOException {
        return new PeerProcess(command, stderr);
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the process went away; EOF below says so
        }
        lines.add(EOF);
    }

    /** Waits for the next stdout line starting with {@code prefix}, skipping others. */
    String awaitLine(String prefix, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try {
            while (true) {
                String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null || line.equals(EOF)) {
                    throw new PeerStalledException("peer " + command + (line == null
                            ? " said no " + prefix + " within " + timeoutMillis + " ms"
                            : " exited before " + prefix + " (exit " + exitCode() + ")"));
                }
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PeerStalledException("interrupted waiting for " + prefix);
        }
    }

    /** Waits for the peer's report and its exit. */
    Report awaitReport(long timeoutMillis) throws InterruptedException {
        Report report = Report.parse(awaitLine("DONE", timeoutMillis));
        if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
            throw new PeerStalledException("peer " + command + " did not exit cleanly after its report");
        }
        return report;
    }

    private String exitCode() {
        try {
            return process.waitFor(1, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Closes the peer's stdin, which is what the peer sees when this JVM dies. */
    void closeInput() throws IOException {
        process.getOutputStream().close();
    }

    /** Waits for the peer to exit and returns its exit code, or -1 if it is still running. */
    int awaitExit(long timeoutMillis) throws InterruptedException {
        return process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** Closes the peer's stdin, gives it a moment, then kills it if still alive. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
