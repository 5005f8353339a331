package io.caskbench.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Runs the packaged {@code bitcask.jar} as a real process, the way a person or a script does. */
final class Cli {

    private static final Path JAR = Path.of(System.getProperty("bitcask.jar", "target/bitcask.jar"));
    /** Threads that drain the child's output; the common pool may have one thread on two cores. */
    private static final ExecutorService DRAINS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bitcask-cli-drain");
        t.setDaemon(true);
        return t;
    });

    private Cli() {
    }

    /** What one run did. */
    record Run(int exit, byte[] stdout, String stderr) {
        /** Standard output as UTF-8 text. */
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out() + "\n--- stderr\n" + stderr;
        }
    }

    /** Runs {@code bitcask ARGS} with nothing on stdin. */
    static Run run(String... args) {
        return run(new byte[0], args);
    }

    /** Runs {@code bitcask ARGS} with {@code stdin} on its standard input. */
    static Run run(byte[] stdin, String... args) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: the tests run after 'package' (mvn verify)");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-jar");
        cmd.add(JAR.toString());
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).start();
            CompletableFuture<byte[]> out = drain(p.getInputStream());
            CompletableFuture<byte[]> err = drain(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin);
            } catch (IOException readerClosedEarly) {
                // a command that does not read stdin may exit before we finish writing it
            }
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("bitcask " + String.join(" ", args) + " did not finish in 120 s");
            }
            return new Run(p.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static CompletableFuture<byte[]> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                in.transferTo(b);
                return b.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, DRAINS);
    }
}
