package io.caskbench.bitcask.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts a {@code main} class of the test sources in a child JVM with the test class path. */
public final class ChildJvm {

    private ChildJvm() {
    }

    public static Process start(Class<?> main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    public static BufferedReader stdout(Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
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
