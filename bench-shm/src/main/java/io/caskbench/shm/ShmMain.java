package io.caskbench.shm;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.RunFolders;
import io.caskbench.report.input.RunRecord;
import io.caskbench.report.table.ShmTables;
import io.caskbench.shm.msg.Messaging;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;

/**
 * Runs bench-shm: the JMH suites, the C anchors and the messaging, in one session, then prints the
 * Java/C and shm/UDP tables. Run by {@code mvn -pl bench-shm -am package exec:exec -DskipTests}.
 *
 * <p>System properties: {@code caskbench.results} (results root, default {@code results}; each run
 * writes into a new folder in it, which {@code <root>/latest} then points at),
 * {@code caskbench.profile} ({@code quick}, {@code full} or {@code smoke}), {@code caskbench.include}
 * (regex over benchmark names of all three parts), {@code caskbench.jmhArgs} (passed to JMH),
 * {@code caskbench.shm.parts} (any of {@code jmh,c,msg}). Writes {@code shm.json}, {@code shm-c.json},
 * {@code shm-messaging.json} (all JMH JSON) and {@code shm-ratios.txt}.
 */
public final class ShmMain {

    /** How long a run waits for another JMH run on the machine to finish. */
    private static final int LOCK_WAIT_MINUTES = 60;

    private ShmMain() {
    }

    /** Entry point; configured by system properties (see the class comment). */
    public static void main(String[] args) throws IOException, RunnerException {
        // A folder of its own under the results root, so that no run overwrites another.
        Path root = Path.of(System.getProperty("caskbench.results", "results")).toAbsolutePath();
        Path results = RunFolders.create(root, ShmSuite.NAME);
        System.out.println("bench-shm: results in " + results + " (" + root.resolve(RunFolders.LATEST) + " points at it)");
        Set<String> parts = Arrays.stream(System.getProperty("caskbench.shm.parts", "jmh,c,msg").split(","))
                .map(s -> s.trim().toLowerCase(Locale.ROOT)).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
        run(results, Profile.of(System.getProperty("caskbench.profile", "quick")),
                System.getProperty("caskbench.include", "").trim(), System.getProperty("caskbench.jmhArgs", ""),
                parts, System.out);
        publish(results);
    }

    /**
     * One run: the parts named in {@code parts} ({@code jmh}, {@code c}, {@code msg}), their result files
     * in {@code results}, and the tables, which it also returns.
     */
    public static String run(Path results, Profile profile, String include, String jmhArgs, Set<String> parts,
                             PrintStream log) throws IOException, RunnerException {
        Predicate<String> included = include.isEmpty() ? name -> true : Pattern.compile(include).asPredicate();
        Files.createDirectories(results);
        RunRecord.write(results, ShmSuite.NAME, command(results, profile, include, jmhArgs, parts));
        java.util.OptionalLong l3 = L3Cache.bytes();
        Files.writeString(results.resolve(ShmTables.CPU_FILE), l3.isPresent()
                ? "{\"l3CacheBytes\": " + l3.getAsLong() + "}\n" : "{}\n", StandardCharsets.UTF_8);
        log.printf("bench-shm: L3 cache %s; regions %s%n", l3.isPresent() ? RegionSize.format(l3.getAsLong())
                : "unknown (no sysfs)", profile.regions());
        String loadBefore = loadAverage();
        log.printf("bench-shm: profile %s, regions %s, results in %s, JDK %s, load average %s%n", profile.name(),
                profile.regions(), results, Runtime.version(), loadBefore);
        String diskStore = fileSystemType(Backing.diskDir());
        log.printf("bench-shm: disk regions in %s (%s), shm regions in %s (%s)%n", Backing.diskDir(), diskStore,
                Backing.shmDir(), fileSystemType(Backing.shmDir()));
        if (diskStore.equals("tmpfs")) {
            log.println("bench-shm: WARNING the 'disk' backing is on tmpfs here; set -Dcaskbench.shm.diskDir to a disk");
        }
        if (!Segments.AVAILABLE) {
            log.println("bench-shm: JDK " + Runtime.version().feature()
                    + " has no final MemorySegment API: the segment* variants are skipped (they need JDK 22+)");
        }

        // C and messaging first, under JMH's lock, then the JMH suite, which takes the lock itself
        JmhLock lock = JmhLock.await(Duration.ofMinutes(LOCK_WAIT_MINUTES), log);
        NativeBuild build = NativeBuild.get();
        List<Path> written = new ArrayList<>();
        try {
            build.problem().ifPresent(p -> log.println("bench-shm: C anchors and the C peer are SKIPPED: " + p));
            Path cJson = results.resolve(ShmSuite.NAME + "-c.json");
            if (parts.contains("c") && build.available()) {
                JmhResults.write(cJson, CAnchors.run(build, profile, included, log));
                written.add(cJson);
            } else if (parts.contains("c")) {
                Files.deleteIfExists(cJson); // an old run's C figures must not sit beside this run's Java ones
            }
            if (parts.contains("msg")) {
                Path msgJson = results.resolve(ShmSuite.NAME + "-messaging.json");
                JmhResults.write(msgJson, Messaging.run(profile, build, included, log));
                written.add(msgJson);
            }
        } finally {
            if (lock != null) {
                lock.close();
            }
        }

        if (parts.contains("jmh")) {
            Path javaJson = results.resolve(ShmSuite.NAME + ".json");
            new Runner(ShmSuite.options(profile, include, jmhArgs, javaJson).build()).run();
            written.add(javaJson);
        }

        // The tables come from this run's JSON, read back as bench-report reads it for the docs.
        List<JmhResult> rows = new ArrayList<>();
        for (Path file : written) {
            rows.addAll(ResultFile.read(file).results());
        }
        String table = String.format("bench-shm %s profile, JDK %s, %s, %d CPUs, load average %s before and %s after%n",
                profile.name(), Runtime.version(), build.available() ? build.compiler() : "no C compiler",
                Runtime.getRuntime().availableProcessors(), loadBefore, loadAverage())
                + ShmTables.render(rows, ShmTables.l3(results)).text();
        log.println(table);
        Files.writeString(results.resolve(ShmSuite.NAME + "-ratios.txt"), table, StandardCharsets.UTF_8);
        return table;
    }

    /** The Maven command that runs this again from a fresh clone, for the generated docs. */
    static String command(Path results, Profile profile, String include, String jmhArgs, Set<String> parts) {
        StringBuilder cmd = new StringBuilder("./mvnw -B -pl bench-shm -am package exec:exec -DskipTests");
        cmd.append(" -Dcaskbench.profile=").append(profile.name()).append(RunRecord.resultsOption(results));
        if (!include.isBlank()) {
            cmd.append(" -Dcaskbench.include='").append(include).append('\'');
        }
        if (!jmhArgs.isBlank()) {
            cmd.append(" -Dcaskbench.jmhArgs='").append(jmhArgs).append('\'');
        }
        if (!parts.containsAll(Set.of("jmh", "c", "msg"))) {
            cmd.append(" -Dcaskbench.shm.parts=").append(String.join(",", new java.util.TreeSet<>(parts)));
        }
        return cmd.toString();
    }

    private static String fileSystemType(Path dir) {
        try {
            return Files.getFileStore(dir).type();
        } catch (IOException e) {
            return "missing";
        }
    }

    /** The 1, 5 and 15 minute load averages: a busy machine explains odd figures. */
    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** Hands the run to the shared report pipeline: machine description, summaries, index.html. */
    private static void publish(Path results) {
        io.caskbench.report.input.Machine.write(results);
        System.out.println("bench-shm: results in " + results + ", report " + io.caskbench.report.page.Reports.renderAll(results));
    }
}
