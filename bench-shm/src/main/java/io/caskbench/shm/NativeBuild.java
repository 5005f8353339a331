package io.caskbench.shm;

import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Compiles the C programs of {@code src/main/c} with gcc at {@code -O2}, once per source change.
 *
 * <p>Compiling at run time (from the sources the build copies onto the class path) keeps one code path
 * for exec:exec, the tests and a plain {@code java -cp}; when gcc is missing the result says why and
 * callers skip the C parts. Output goes to {@code caskbench.shm.nativeDir} (the build passes
 * {@code bench-shm/target/native}), with a stamp of the sources, flags and gcc version to skip
 * recompiling.
 */
public final class NativeBuild {

    /** The one place the C flags live. */
    public static final List<String> FLAGS = List.of("-O2", "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra");

    /** The region anchor program. */
    public static final String REGION_BENCH = "region_bench";
    /** The messaging peer program. */
    public static final String MSG_PEER = "msg_peer";

    private static final List<String> HEADERS = List.of("common.h", "ring.h");
    private static final List<String> PROGRAMS = List.of(REGION_BENCH, MSG_PEER);
    private static final String RESOURCE_DIR = "/io/caskbench/shm/c/";

    private static NativeBuild cached;

    private final Path dir;
    private final String compilerVersion;
    private final String problem;

    private NativeBuild(Path dir, String compilerVersion, String problem) {
        this.dir = dir;
        this.compilerVersion = compilerVersion;
        this.problem = problem;
    }

    /** The build for this JVM: compiled on first call, then reused. Never throws. */
    public static synchronized NativeBuild get() {
        if (cached == null) {
            cached = build(Path.of(System.getProperty("caskbench.shm.nativeDir",
                    Path.of(System.getProperty("java.io.tmpdir"), "caskbench-native").toString())).toAbsolutePath());
        }
        return cached;
    }

    /** Whether the C programs are ready to run. */
    public boolean available() {
        return problem == null;
    }

    /** Why the C programs are not available, or empty when they are. */
    public Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    /** The compiler and flags, e.g. {@code gcc 12.2.0 -O2 ...}, for result files. */
    public String compiler() {
        return compilerVersion + " " + String.join(" ", FLAGS);
    }

    /** Path of a compiled program ({@link #REGION_BENCH} or {@link #MSG_PEER}). */
    public Path program(String name) {
        if (!available()) {
            throw new IllegalStateException("C programs unavailable: " + problem);
        }
        return dir.resolve(name);
    }

    @SuppressWarnings("try") // the file lock is held for its block, never read
    private static NativeBuild build(Path dir) {
        String cc = System.getProperty("caskbench.shm.cc", "gcc");
        String version;
        try {
            Run r = exec(List.of(cc, "-dumpfullversion"), null);
            if (r.exit != 0) {
                return new NativeBuild(dir, "", cc + " -dumpfullversion failed: " + r.output.strip());
            }
            version = cc + " " + r.output.strip();
        } catch (IOException e) {
            return new NativeBuild(dir, "", cc + " not found (" + e.getMessage() + ")");
        }
        try {
            Files.createDirectories(dir.resolve("src"));
            try (FileChannel lockFile = FileChannel.open(dir.resolve(".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock lock = lockFile.lock()) {
                String problem = compileIfStale(cc, version, dir);
                return new NativeBuild(dir, version, problem);
            }
        } catch (IOException e) {
            return new NativeBuild(dir, version, "cannot compile into " + dir + ": " + e);
        }
    }

    private static String compileIfStale(String cc, String version, Path dir) throws IOException {
        Hasher stamp = Hashing.sha256().newHasher().putString(version + FLAGS, StandardCharsets.UTF_8);
        List<String> files = new ArrayList<>(HEADERS);
        PROGRAMS.forEach(p -> files.add(p + ".c"));
        for (String f : files) {
            byte[] source = resource(f);
            stamp.putBytes(source);
            Files.write(dir.resolve("src").resolve(f), source);
        }
        String hash = stamp.hash().toString();
        Path stampFile = dir.resolve("stamp");
        boolean fresh = Files.exists(stampFile) && Files.readString(stampFile).equals(hash)
                && PROGRAMS.stream().allMatch(p -> Files.isExecutable(dir.resolve(p)));
        if (fresh) {
            return null;
        }
        for (String program : PROGRAMS) {
            Path tmp = dir.resolve(program + ".tmp");
            List<String> cmd = new ArrayList<>(List.of(cc));
            cmd.addAll(FLAGS);
            cmd.addAll(List.of("-o", tmp.toString(), dir.resolve("src").resolve(program + ".c").toString()));
            Run r = exec(cmd, dir.resolve("src"));
            if (r.exit != 0) {
                return "gcc failed on " + program + ".c: " + r.output.strip();
            }
            Files.move(tmp, dir.resolve(program), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        }
        Files.writeString(stampFile, hash);
        return null;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = NativeBuild.class.getResourceAsStream(RESOURCE_DIR + name)) {
            if (in == null) {
                throw new IOException("C source " + name + " missing from the class path");
            }
            return in.readAllBytes();
        }
    }

    private record Run(int exit, String output) {
    }

    private static Run exec(List<String> cmd, Path workDir) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (workDir != null) {
            pb.directory(workDir.toFile());
        }
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return new Run(-1, "timed out: " + cmd);
            }
            return new Run(p.exitValue(), out);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted", e));
        }
    }
}
