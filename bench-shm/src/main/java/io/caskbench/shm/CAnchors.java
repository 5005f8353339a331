package io.caskbench.shm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Times region_bench.c (the C anchors) in this session, with the iteration shape of the JMH suites,
 * and returns the results as JMH results named {@code io.caskbench.shm.c.RegionAnchor.<op>}.
 *
 * <p>C backings: {@code disk} and {@code shm} map a file like the Java backings of the same name,
 * {@code shmget} is the seed's System V segment, {@code anon} is anonymous memory (C's counterpart of a
 * direct ByteBuffer).
 */
public final class CAnchors {

    /** Prefix of every C anchor benchmark name. */
    public static final String PREFIX = "io.caskbench.shm.c.RegionAnchor.";

    /** The C backings, in table order. */
    public static final List<String> BACKINGS = List.of("disk", "shm", "shmget", "anon");

    /** C operation name to benchmark method name; prng does not depend on the backing. */
    private static final Map<String, String> OPS = Map.of(
            "write", "write", "write-libc-rand", "writeLibcRand", "clear", "clear", "prng", "prng");

    private CAnchors() {
    }

    /**
     * Runs every anchor the include filter lets through.
     *
     * @param include matched (find) against the benchmark name
     * @param log progress lines
     */
    public static List<RunResult> run(NativeBuild build, Profile profile, Predicate<String> include,
                                      PrintStream log) throws IOException {
        List<RunResult> results = new ArrayList<>();
        for (String region : profile.regions()) {
            for (String op : List.of("prng", "write", "write-libc-rand", "clear")) {
                for (String backing : op.equals("prng") ? List.of("anon") : BACKINGS) {
                    String name = PREFIX + OPS.get(op);
                    if (include.test(name)) {
                        log.printf("C anchor %s backing=%s region=%s%n", name, backing, region);
                        results.add(measure(build, profile, name, op, backing, region));
                    }
                }
            }
        }
        return results;
    }

    /**
     * {@code profile.forks()} process runs of region_bench, each with warm-up and measured iterations,
     * as one JMH result whose forks are the processes.
     */
    static RunResult measure(NativeBuild build, Profile profile, String name, String op, String backing,
                             String region) throws IOException {
        List<List<List<Result<?>>>> forks = new ArrayList<>();
        List<String> cmd = List.of();
        for (int fork = 0; fork < profile.forks(); fork++) {
            Path file = fileFor(backing);
            cmd = List.of(build.program(NativeBuild.REGION_BENCH).toString(), backing,
                    Integer.toString(RegionSize.parse(region)), op, file == null ? "-" : file.toString(),
                    Integer.toString(profile.warmups()), Integer.toString(profile.iterations()),
                    Integer.toString(profile.iterationMillis()));
            List<List<Result<?>>> iterations = new ArrayList<>();
            for (String line : runProgram(cmd, file)) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 3 && f[0].equals("measure")) {
                    iterations.add(List.of(new AverageTimeResult(ResultRole.PRIMARY, OPS.get(op),
                            Long.parseLong(f[1]), Long.parseLong(f[2]), TimeUnit.NANOSECONDS)));
                }
            }
            if (iterations.size() != profile.iterations()) {
                throw new IOException(cmd + " reported " + iterations.size() + " iterations, expected "
                        + profile.iterations());
            }
            forks.add(iterations);
        }
        Map<String, String> params = new LinkedHashMap<>();
        params.put("backing", backing);
        params.put("region", region);
        return JmhResults.runs(new JmhResults.Spec(name, Mode.AverageTime, params, profile.warmups(),
                TimeValue.milliseconds(profile.iterationMillis()), TimeUnit.NANOSECONDS,
                build.program(NativeBuild.REGION_BENCH).toString(), cmd.subList(1, cmd.size()),
                build.compiler()), forks);
    }

    /**
     * Runs region_bench to completion and returns its stdout lines; deletes {@code file} afterwards
     * whatever happened, so a killed run leaves no region behind.
     */
    static List<String> runProgram(List<String> cmd, Path file) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            List<String> lines = new ArrayList<>();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
            if (!p.waitFor(1, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IOException(cmd + " failed" + (p.isAlive() ? " (hung)" : ": exit " + p.exitValue()));
            }
            return lines;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            p.destroyForcibly();
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** A fresh, not yet existing file name for a mapped C backing (C creates it exclusively). */
    static Path fileFor(String backing) {
        Path dir;
        switch (backing) {
            case "disk":
                dir = Backing.diskDir();
                break;
            case "shm":
                dir = Backing.shmDir();
                break;
            default:
                return null;
        }
        try {
            Path tmp = Files.createTempFile(dir, "caskbench-c-region-", ".bin");
            Files.delete(tmp);
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
