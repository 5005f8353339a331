package io.caskbench.bench.files.ops;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

/**
 * Common frame of the seed-003 operations that change the file system (create, write, copy,
 * move, delete, link). None of them has a steady state: a file can be created or deleted once. So
 * each iteration is a single shot of a batch of operations, each on its own fresh target; the
 * targets are prepared before the iteration and everything is removed after it, outside the
 * timer. {@code @OperationsPerInvocation} equals the batch size, so JMH divides the batch time and
 * reports the time per operation.
 *
 * <p>The batch size is fixed here, not per profile: a batch size given on the command line would
 * also divide the scores of every non-batched benchmark in the same run. {@link #prepareBatch}
 * refuses a batch size that disagrees with the operations per invocation.
 *
 * <p>Why a batch, not {@code @Setup(Level.Invocation)}: per-invocation fixtures would put a
 * create-or-delete system call, with its cache and journal side effects, right before every
 * timed operation, and JMH's own per-invocation timestamps would sit inside operations that take
 * only microseconds. A batch runs the operation back to back, as a program doing it in a loop.
 *
 * <p>Each subclass fills {@link #prepare(int)} and implements one operation per
 * {@code @Benchmark} method using {@link #nextIndex()}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, batchSize = BatchedFileOperation.BATCH)
@Measurement(iterations = 10, batchSize = BatchedFileOperation.BATCH)
@OperationsPerInvocation(BatchedFileOperation.BATCH)
public abstract class BatchedFileOperation {

    /** Operations per iteration (one single shot). */
    public static final int BATCH = 50;

    private Workspace workspace;
    private Path iterationDir;
    private int iterations;
    private int next;
    private int batch;

    /** For JMH. */
    protected BatchedFileOperation() {
    }

    /** Creates the scratch directory of the trial and whatever the subclass shares across iterations. */
    @Setup(Level.Trial)
    public void openWorkspace() {
        workspace = Workspace.create(getClass().getSimpleName());
        prepareTrial(workspace.root());
    }

    /**
     * Prepares a fresh directory with {@code batchSize} targets for the coming batch.
     *
     * @param benchmark tells the operations per invocation the score is divided by
     * @param iteration tells the batch size of this iteration
     */
    @Setup(Level.Iteration)
    public void prepareBatch(BenchmarkParams benchmark, IterationParams iteration) {
        batch = iteration.getBatchSize();
        if (batch != benchmark.getOpsPerInvocation()) {
            throw new IllegalStateException("batch size " + batch + " must equal the operations per invocation "
                    + benchmark.getOpsPerInvocation() + ", or the score is not per operation");
        }
        next = 0;
        try {
            iterationDir = Files.createDirectory(workspace.root().resolve("iteration-" + iterations++));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        prepare(batch);
    }

    /**
     * Checks that the batch ran to the end and removes everything it made.
     */
    @TearDown(Level.Iteration)
    public void cleanBatch() {
        if (next != batch) {
            throw new IllegalStateException("batch ran " + next + " operations, expected " + batch);
        }
        try {
            MoreFiles.deleteRecursively(iterationDir, RecursiveDeleteOption.ALLOW_INSECURE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the scratch directory of the trial. */
    @TearDown(Level.Trial)
    public void closeWorkspace() {
        workspace.close();
    }

    /**
     * Called once per trial, before any batch, for fixtures shared by all batches.
     *
     * @param trialDir the trial's scratch directory
     */
    protected void prepareTrial(Path trialDir) {
    }

    /**
     * Creates the targets of one batch in {@link #batchDir()}.
     *
     * @param count number of operations the batch will run
     */
    protected abstract void prepare(int count);

    /**
     * The directory of the current batch; deleted, with its content, after the batch.
     *
     * @return the batch directory
     */
    protected Path batchDir() {
        return iterationDir;
    }

    /**
     * Index of the operation about to run within the batch, for picking its target.
     *
     * @return 0 for the first operation of the batch, then 1, 2, ...
     */
    protected int nextIndex() {
        return next++;
    }

    /**
     * Names of the form {@code prefix-i} in the batch directory, one per operation.
     *
     * @param prefix name prefix
     * @param count how many
     * @return the paths, not yet created
     */
    protected Path[] names(String prefix, int count) {
        Path[] paths = new Path[count];
        for (int i = 0; i < count; i++) {
            paths[i] = iterationDir.resolve(prefix + "-" + i);
        }
        return paths;
    }
}
