package io.caskbench.raft.lincheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Threading: the test thread.
 *
 * <p>Runs the Porcupine linearizability checker ({@code src/test/go/lincheck}), built with the
 * {@code go} command when it is on the PATH; tests call {@link #available()} and skip without it.
 */
public final class Porcupine {

    /** The checker's verdict. */
    public enum Verdict { LINEARIZABLE, NOT_LINEARIZABLE, UNKNOWN }

    private static final Path SOURCE = Path.of("src/test/go/lincheck");
    private static final Path BINARY = Path.of("target/lincheck/lincheck");

    private Porcupine() {
    }

    /** True when {@code go} is on the PATH. */
    public static boolean available() {
        try {
            Process p = new ProcessBuilder("go", "version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Checks the history in {@code file}; the checker's output is returned in the verdict's message. */
    public static Result check(Path file) throws IOException, InterruptedException {
        build();
        Process p = new ProcessBuilder(BINARY.toAbsolutePath().toString(), file.toAbsolutePath().toString(), "120")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the checker did not finish");
        }
        return switch (p.exitValue()) {
            case 0 -> new Result(Verdict.LINEARIZABLE, out);
            case 1 -> new Result(Verdict.NOT_LINEARIZABLE, out);
            case 3 -> new Result(Verdict.UNKNOWN, out);
            default -> throw new AssertionError("the checker failed: " + out);
        };
    }

    /** A verdict and the checker's own words. */
    public record Result(Verdict verdict, String output) {
    }

    private static synchronized void build() throws IOException, InterruptedException {
        if (Files.isExecutable(BINARY)) {
            return;
        }
        Files.createDirectories(BINARY.getParent());
        ProcessBuilder pb = new ProcessBuilder("go", "build", "-o", BINARY.toAbsolutePath().toString(), ".")
                .directory(SOURCE.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("go build of the checker failed: " + out);
        }
    }
}
