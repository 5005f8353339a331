package io.caskbench.bench.store;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.bench.open.OpenBench;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code targets} suite: every measurement issue 9's performance targets are stated in, in one run, at
 * their point (1M keys, 16-byte keys, 100-byte values, random order, no per-operation fsync unless the row
 * is about {@code SyncPolicy.ALWAYS}). Its comparison file ends with the table of targets, each with the
 * measured ratio and whether it is met.
 *
 * <ul>
 *   <li>P1, P2, P6: {@link PeersSingleThread}, every store;</li>
 *   <li>P3, P4 (1000 threads): {@link ThousandThreads} get and put for both BitCask backends and the bound;</li>
 *   <li>P4 (floor): {@link WriteFloor} against {@code PeersSingleThread.put} on FILE_CHANNEL;</li>
 *   <li>P5: {@link GroupCommit} with {@code SyncPolicy.ALWAYS}, one thread against 1000;</li>
 *   <li>P7: {@link OpenBench}, open with hint files against a full scan.</li>
 * </ul>
 */
public final class TargetsSuite implements Suite {

    /** Benchmarks that only this suite runs (the store suite runs the others), as a pattern on their names. */
    public static final Pattern ONLY = Pattern.compile("\\.(WriteFloor|GroupCommit|OpenBench)\\.");

    private static final String[] THREADED = {"BITCASK_MAPPED", "BITCASK_FILE_CHANNEL", "CONCURRENT_HASH_MAP"};
    private static final int GANG_OPS_PER_THREAD = 100;

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public TargetsSuite() {
    }

    @Override
    public String name() {
        return "targets";
    }

    @Override
    public String description() {
        return "Issue 9's performance targets P1-P7, measured together at 1M keys, 16-byte keys, 100-byte values";
    }

    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        return base(profile).include(pattern(PeersSingleThread.class)).include(pattern(ThousandThreads.class))
                .include(pattern(WriteFloor.class)).include(pattern(GroupCommit.class))
                .include(pattern(OpenBench.class));
    }

    private static ChainedOptionsBuilder base(Profile profile) {
        ChainedOptionsBuilder options = new OptionsBuilder().addProfiler(FootprintProfiler.class)
                .shouldFailOnError(profile == Profile.SMOKE);
        options.jvmArgsPrepend("-Dcaskbench.gangLimitSeconds=" + (profile == Profile.SMOKE ? 900 : 60));
        return switch (profile) {
            case SMOKE -> options.forks(1).warmupIterations(0).measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(10));
            case QUICK -> options.forks(1).warmupIterations(2).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(1));
            case FULL -> options.forks(2).warmupIterations(3).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(2));
        };
    }

    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        boolean smoke = profile == Profile.SMOKE;
        String[] keys = {smoke ? "10000" : "1000000"};
        List<ChainedOptionsBuilder> runs = new ArrayList<>();
        runs.add(base(profile).include(pattern(PeersSingleThread.class)).param("keyCount", keys)
                .param("valueSize", "100").param("order", "RANDOM"));
        int gangOps = smoke ? 1 : 1000;
        for (String method : new String[] {"get", "put"}) {
            // Each invocation is 1M operations; the first measured ones are warm enough, as in the store suite.
            runs.add(base(profile).include(pattern(ThousandThreads.class) + method + "$").param("keyCount", keys)
                    .param("valueSize", "100").param("order", "RANDOM").param("store", THREADED)
                    .param("opsPerThread", String.valueOf(gangOps)).operationsPerInvocation(Gang.THREADS * gangOps)
                    .warmupIterations(smoke ? 0 : 1));
        }
        runs.add(base(profile).include(pattern(WriteFloor.class)).param("valueSize", "100"));
        int commitOps = smoke ? 1 : GANG_OPS_PER_THREAD;
        runs.add(base(profile).include(pattern(GroupCommit.class) + "single$"));
        runs.add(base(profile).include(pattern(GroupCommit.class) + "gang$")
                .param("opsPerThread", String.valueOf(commitOps))
                .operationsPerInvocation(GroupCommit.THREADS * commitOps));
        ChainedOptionsBuilder open = new OptionsBuilder().include(pattern(OpenBench.class))
                .shouldFailOnError(smoke).param("keyCount", keys);
        runs.add(smoke ? open.warmupIterations(0).measurementIterations(1) : open);
        return runs;
    }

    private static String pattern(Class<?> benchmark) {
        return "\\." + benchmark.getSimpleName() + "\\.";
    }

    @Override
    public void beforeRuns(Path results) {
        StoppedRuns.clear(results);
    }

    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(StoreSummary.render(rows, StoppedRuns.read(results)));
    }
}
