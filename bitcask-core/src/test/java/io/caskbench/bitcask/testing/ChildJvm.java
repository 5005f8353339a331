package io.caskbench.bitcask.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Starts a {@code main} class of the test sources in a child JVM with the test class path. */
public final class ChildJvm {

    private ChildJvm() {
    }

    public static Process start(Class<?> main, String... args) throws IOException {
        return new ProcessBuilder(command(main, args)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static List<String> command(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * Runs {@code main} to its end, as {@link #start} would, and returns what it printed on stdout
     * and stderr together, for tests of what a program embedding the store shows its users.
     *
     * @throws IllegalStateException when the child does not end within {@code timeoutSeconds} or exits non-zero
     */
    public static String run(Class<?> main, long timeoutSeconds, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command(main, args)).redirectErrorStream(true);
        Path out = Files.createTempFile("child-jvm", ".out");
        try {
            Process p = pb.redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(main.getSimpleName() + " did not end within " + timeoutSeconds + " s");
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(main.getSimpleName() + " exited with " + p.exitValue() + ":\n" + printed);
            }
            return printed;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    public static BufferedReader stdout(Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Reads the child's lines into {@code ack} for {@code nanos}, kills it ({@link #kill}), then
     * reads the lines still in the pipe, which were printed before the kill, until {@code ack}
     * refuses a half-printed one.
     */
    public static void killAfter(Process p, BufferedReader out, long nanos, Predicate<String> ack)
            throws IOException, InterruptedException {
        long started = System.nanoTime();
        while (System.nanoTime() - started < nanos) {
            String line = out.readLine();
            if (line == null) {
                throw new AssertionError("child exited early; see its stderr above");
            }
            ack.test(line);
        }
        kill(p);
        for (String line; (line = out.readLine()) != null; ) {
            if (!ack.test(line)) {
                break;
            }
        }
    }

    /**
     * {@code kill -9}: no shutdown hook, no close, no flush of anything. Sent with the kill command
     * rather than {@link Process#destroyForcibly()}, which would also close our end of the child's
     * stdout and lose acknowledgements still in the pipe.
     */
    public static void kill(Process p) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", "-9", Long.toString(p.pid())).inheritIO().start();
        if (!k.waitFor(30, TimeUnit.SECONDS) || k.exitValue() != 0) {
            p.destroyForcibly();
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("child did not die");
        }
    }
}
