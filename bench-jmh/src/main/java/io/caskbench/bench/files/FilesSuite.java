package io.caskbench.bench.files;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.bench.files.fixture.CacheMode;
import io.caskbench.bench.files.ops.BatchedFileOperation;
import io.caskbench.bench.files.ops.FileCopy;
import io.caskbench.bench.files.ops.FileCreation;
import io.caskbench.bench.files.ops.FileDelete;
import io.caskbench.bench.files.ops.FileLink;
import io.caskbench.bench.files.ops.FileMove;
import io.caskbench.bench.files.ops.FileWrite;
import io.caskbench.report.table.FilesTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code files} suite: whole-file reads (the phone experiment), random chunk reads (the laptop
 * experiment) and the file-system operations of the iPod experiment, everything under
 * {@code io.caskbench.bench.files}.
 *
 * <p>Parameter names are unique per benchmark class on purpose: JMH applies a parameter given
 * here to every benchmark that declares it. Batch sizes are not set here for the same reason
 * (see {@link io.caskbench.bench.files.ops.BatchedFileOperation}).
 */
public final class FilesSuite implements Suite {

    /** Regular expression selecting every benchmark of this suite. */
    public static final String INCLUDE = "^io\\.caskbench\\.bench\\.files\\.";

    /**
     * Regular expression selecting the batched file operations: single shots of {@link BatchedFileOperation#BATCH}
     * operations, whose few, short samples need their own iteration counts.
     */
    static final String BATCHED = Stream.of(FileCopy.class, FileCreation.class, FileDelete.class, FileLink.class,
            FileMove.class, FileWrite.class).map(c -> Pattern.quote(c.getName()) + "\\.")
            .collect(Collectors.joining("|", "^(?:", ")"));

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public FilesSuite() {
    }

    @Override
    public String name() {
        return "files";
    }

    @Override
    public String description() {
        return "How should Java read and manage files here: whole-file readers (warm and cold cache), "
                + "random chunk reads, mmap vs streams, and NIO file operations.";
    }

    /**
     * bench-report's files comparison of the JSON this run just wrote: the mapped reader against the
     * others per setting, and every cold row against its warm twin.
     */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(FilesTables.render(readResults(results)).text());
    }

    /**
     * Smoke: one run. Quick and full: every benchmark but the batched file operations with the profile's
     * iterations, then the batched operations with their own warm-up and measurement counts (they
     * declare 3 and 10 batches: fewer left their rows with a fork spread above 100%) and the profile's
     * forks and sizes.
     */
    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        if (profile == Profile.SMOKE) {
            return List.of(options(profile));
        }
        Warmup warmup = BatchedFileOperation.class.getAnnotation(Warmup.class);
        Measurement measurement = BatchedFileOperation.class.getAnnotation(Measurement.class);
        return List.of(options(profile).exclude(BATCHED),
                settings(profile, new OptionsBuilder().include(BATCHED).shouldFailOnError(true))
                        .warmupIterations(warmup.iterations()).measurementIterations(measurement.iterations()));
    }

    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        return settings(profile, new OptionsBuilder().include(INCLUDE).shouldFailOnError(true));
    }

    private static ChainedOptionsBuilder settings(Profile profile, ChainedOptionsBuilder options) {
        switch (profile) {
            case QUICK:
                return quick(options);
            case FULL:
                return full(options);
            case SMOKE:
                return smoke(options);
            default:
                throw new IllegalArgumentException("unknown profile " + profile);
        }
    }

    /** Forks of the measuring profiles: separate JVM runs, whose spread the comparison prints. */
    static final int FORKS = 3;

    /** The seeds' sizes scaled down, few short iterations, three forks (its duration: docs/benchmarks.md). */
    private static ChainedOptionsBuilder quick(ChainedOptionsBuilder options) {
        return seedShapes(options)
                .forks(FORKS)
                .warmupIterations(2).warmupTime(TimeValue.milliseconds(300))
                .measurementIterations(3).measurementTime(TimeValue.milliseconds(500))
                .param("largestMb", "16")
                .param("randomFileMb", "256")
                .param("writeTotalMb", "64")
                .param("sweepFileMb", "64")
                .param("readChunkKb", "1", "4", "64", "1024", "8192")
                .param("seekFileMb", "64");
    }

    /** The seeds' own sizes, three forks and longer iterations. */
    private static ChainedOptionsBuilder full(ChainedOptionsBuilder options) {
        return seedShapes(options)
                .forks(FORKS)
                .warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(2))
                .param("largestMb", "94")
                .param("randomFileMb", "64", "1024")
                .param("writeTotalMb", "1024")
                .param("sweepFileMb", "1024")
                .param("readChunkKb", "1", "4", "64", "128", "256", "512", "1024", "2048", "4096", "8192")
                .param("seekFileMb", "1024");
    }

    /** Parameters that keep the seeds' values in both the quick and the full profile. */
    private static ChainedOptionsBuilder seedShapes(ChainedOptionsBuilder options) {
        return options
                .param("cache", "warm", "cold")
                .param("fileCount", "800")
                .param("chunk", "256", "4096", "65536")
                .param("filesPerLevel", "10000")
                .param("levels", "1", "2")
                .param("writeChunkKb", "512", "1024", "2048", "4096", "8192")
                .param("force", "each", "end");
    }

    /**
     * One very short iteration of every benchmark with the smallest sizes. Cold runs are included
     * only where this machine can evict pages, so the smoke test does not depend on root.
     */
    private static ChainedOptionsBuilder smoke(ChainedOptionsBuilder options) {
        String[] caches = CacheMode.coldAvailable() ? new String[] {"warm", "cold"} : new String[] {"warm"};
        return options
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(1).measurementTime(TimeValue.milliseconds(20))
                .timeout(TimeValue.minutes(5))
                .param("cache", caches)
                .param("fileCount", "50")
                .param("largestMb", "1")
                .param("chunk", "4096")
                .param("randomFileMb", "1")
                .param("filesPerLevel", "100")
                .param("levels", "1", "2")
                .param("writeSize", "1048576")
                .param("copySize", "1048576")
                .param("writeTotalMb", "2")
                .param("writeChunkKb", "512")
                .param("force", "each", "end")
                .param("sweepFileMb", "1")
                .param("readChunkKb", "64")
                .param("seekFileMb", "1");
    }
}
