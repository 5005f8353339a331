package io.caskbench.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.ProfilerConfig;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.runner.options.WarmupMode;
import org.openjdk.jmh.util.Optional;

/**
 * JMH options where the user's pass-through arguments ({@code top}) override a suite's settings
 * ({@code bottom}) one setting at a time. JMH's own {@code OptionsBuilder.parent} chains the other way
 * round, and {@code Options} cannot list which parameters it sets, so a copy would lose {@code -p}
 * values: hence a view. Profilers and excludes are combined; includes are given explicitly because the
 * caller intersects them. When neither layer sets the forks' JVM arguments, JMH would give the forks this
 * JVM's own; the caller may hand a corrected copy of those instead ({@link ForkArgs}).
 */
final class LayeredOptions implements Options {

    private static final long serialVersionUID = 1L;

    private final Options top;
    private final Options bottom;
    private final List<String> includes;
    /** The forks' JVM arguments when neither layer sets them; null: JMH's default, this JVM's arguments. */
    private final List<String> inheritedJvmArgs;

    LayeredOptions(Options top, Options bottom, List<String> includes) {
        this(top, bottom, includes, null);
    }

    LayeredOptions(Options top, Options bottom, List<String> includes, List<String> inheritedJvmArgs) {
        this.top = top;
        this.bottom = bottom;
        this.includes = List.copyOf(includes);
        this.inheritedJvmArgs = inheritedJvmArgs == null ? null : List.copyOf(inheritedJvmArgs);
    }

    private static <T> Optional<T> pick(Optional<T> top, Optional<T> bottom) {
        return top.hasValue() ? top : bottom;
    }

    private static <T> List<T> both(List<T> top, List<T> bottom) {
        List<T> all = new ArrayList<>(bottom);
        all.addAll(top);
        return all;
    }

    @Override
    public List<String> getIncludes() {
        return includes;
    }

    @Override
    public List<String> getExcludes() {
        return both(top.getExcludes(), bottom.getExcludes());
    }

    @Override
    public Optional<String> getOutput() {
        return pick(top.getOutput(), bottom.getOutput());
    }

    @Override
    public Optional<ResultFormatType> getResultFormat() {
        return pick(top.getResultFormat(), bottom.getResultFormat());
    }

    @Override
    public Optional<String> getResult() {
        return pick(top.getResult(), bottom.getResult());
    }

    @Override
    public Optional<Boolean> shouldDoGC() {
        return pick(top.shouldDoGC(), bottom.shouldDoGC());
    }

    @Override
    public List<ProfilerConfig> getProfilers() {
        return both(top.getProfilers(), bottom.getProfilers());
    }

    @Override
    public Optional<VerboseMode> verbosity() {
        return pick(top.verbosity(), bottom.verbosity());
    }

    @Override
    public Optional<Boolean> shouldFailOnError() {
        return pick(top.shouldFailOnError(), bottom.shouldFailOnError());
    }

    @Override
    public Optional<Integer> getThreads() {
        return pick(top.getThreads(), bottom.getThreads());
    }

    @Override
    public Optional<int[]> getThreadGroups() {
        return pick(top.getThreadGroups(), bottom.getThreadGroups());
    }

    @Override
    public Optional<Boolean> shouldSyncIterations() {
        return pick(top.shouldSyncIterations(), bottom.shouldSyncIterations());
    }

    @Override
    public Optional<Integer> getWarmupIterations() {
        return pick(top.getWarmupIterations(), bottom.getWarmupIterations());
    }

    @Override
    public Optional<TimeValue> getWarmupTime() {
        return pick(top.getWarmupTime(), bottom.getWarmupTime());
    }

    @Override
    public Optional<Integer> getWarmupBatchSize() {
        return pick(top.getWarmupBatchSize(), bottom.getWarmupBatchSize());
    }

    @Override
    public Optional<WarmupMode> getWarmupMode() {
        return pick(top.getWarmupMode(), bottom.getWarmupMode());
    }

    @Override
    public List<String> getWarmupIncludes() {
        return top.getWarmupIncludes().isEmpty() ? bottom.getWarmupIncludes() : top.getWarmupIncludes();
    }

    @Override
    public Optional<Integer> getMeasurementIterations() {
        return pick(top.getMeasurementIterations(), bottom.getMeasurementIterations());
    }

    @Override
    public Optional<TimeValue> getMeasurementTime() {
        return pick(top.getMeasurementTime(), bottom.getMeasurementTime());
    }

    @Override
    public Optional<Integer> getMeasurementBatchSize() {
        return pick(top.getMeasurementBatchSize(), bottom.getMeasurementBatchSize());
    }

    @Override
    public Collection<Mode> getBenchModes() {
        return top.getBenchModes().isEmpty() ? bottom.getBenchModes() : top.getBenchModes();
    }

    @Override
    public Optional<TimeUnit> getTimeUnit() {
        return pick(top.getTimeUnit(), bottom.getTimeUnit());
    }

    @Override
    public Optional<Integer> getOperationsPerInvocation() {
        return pick(top.getOperationsPerInvocation(), bottom.getOperationsPerInvocation());
    }

    @Override
    public Optional<Integer> getForkCount() {
        return pick(top.getForkCount(), bottom.getForkCount());
    }

    @Override
    public Optional<Integer> getWarmupForkCount() {
        return pick(top.getWarmupForkCount(), bottom.getWarmupForkCount());
    }

    @Override
    public Optional<String> getJvm() {
        return pick(top.getJvm(), bottom.getJvm());
    }

    @Override
    public Optional<Collection<String>> getJvmArgs() {
        Optional<Collection<String>> set = pick(top.getJvmArgs(), bottom.getJvmArgs());
        return set.hasValue() || inheritedJvmArgs == null ? set : Optional.of(inheritedJvmArgs);
    }

    @Override
    public Optional<Collection<String>> getJvmArgsAppend() {
        return pick(top.getJvmArgsAppend(), bottom.getJvmArgsAppend());
    }

    @Override
    public Optional<Collection<String>> getJvmArgsPrepend() {
        return pick(top.getJvmArgsPrepend(), bottom.getJvmArgsPrepend());
    }

    @Override
    public Optional<Collection<String>> getParameter(String name) {
        return pick(top.getParameter(name), bottom.getParameter(name));
    }

    @Override
    public Optional<TimeValue> getTimeout() {
        return pick(top.getTimeout(), bottom.getTimeout());
    }
}
