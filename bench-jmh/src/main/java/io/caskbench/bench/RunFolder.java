package io.caskbench.bench;

import io.caskbench.report.input.RunFolders;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;

/**
 * The folder of one suite run, kept so that an interrupted run loses no finished row.
 *
 * <p>Each row's result is written the moment its JMH run ends: {@code <suite>.json} is rewritten with
 * every row of the suite so far, through a temporary file and one rename, so a reader (or an interrupt)
 * never sees half a file. Until the run completes the folder holds a {@link RunFolders#PARTIAL} file
 * saying so, which a {@code kill -9} therefore leaves behind too; an interrupt rewrites it with how far
 * the run got. {@code <root>/latest} is pointed at the folder when its first row is written, so it moves
 * only to a run that has rows.
 *
 * <p>Called by the runner's main thread (rows, runs) and by the shutdown hook (interrupt); every method
 * holds the instance's lock, which guards all the mutable fields.
 */
final class RunFolder {

    private final Path dir;
    /** The results root whose {@code latest} to point here; null: leave every pointer alone. */
    private final Path root;
    private final int runsPlanned;
    private final int rowsPlanned;
    /** Every row written so far, by suite, in the order they finished. */
    private final Map<String, List<RunResult>> rows = new LinkedHashMap<>();
    private int rowCount;
    private int runsDone;
    private boolean pointed;
    private boolean complete;
    private boolean interrupted;

    /**
     * @param dir the run's folder
     * @param root the results root to point at it, or null
     * @param runsPlanned JMH runs of all the suites asked for
     * @param rowsPlanned rows of all those runs
     */
    RunFolder(Path dir, Path root, int runsPlanned, int rowsPlanned) {
        this.dir = dir;
        this.root = root;
        this.runsPlanned = runsPlanned;
        this.rowsPlanned = rowsPlanned;
    }

    /** Marks the folder partial until {@link #complete}: a run that dies unannounced stays marked. */
    synchronized void begin() {
        mark("running: " + rowsPlanned + " rows in " + runsPlanned + " runs planned, none finished yet");
    }

    /** Saves the rows of a finished JMH run of {@code suite} beside the suite's earlier ones. */
    synchronized void rows(String suite, List<RunResult> results) {
        if (results.isEmpty()) {
            return;
        }
        List<RunResult> all = rows.computeIfAbsent(suite, s -> new ArrayList<>());
        all.addAll(results);
        rowCount += results.size();
        write(json(suite), all);
        if (!complete && !interrupted) {
            mark(String.format("running: %d of %d rows done", rowCount, rowsPlanned));
        }
        if (!pointed && root != null) {
            RunFolders.point(root, dir);
            pointed = true;
        }
    }

    /** Counts one of the planned JMH runs as finished. */
    synchronized void runDone() {
        runsDone++;
    }

    /** Every row of {@code suite} so far. */
    synchronized List<RunResult> rowsOf(String suite) {
        return List.copyOf(rows.getOrDefault(suite, List.of()));
    }

    /** How many rows have been written. */
    synchronized int rowCount() {
        return rowCount;
    }

    /** Whether the run was interrupted: the runner starts nothing more. */
    synchronized boolean interrupted() {
        return interrupted;
    }

    /** Whether the run finished: an interrupt then has nothing to do. */
    synchronized boolean complete() {
        return complete;
    }

    /**
     * The run got to its end: the folder is no longer partial if it has rows; one with no rows stays
     * marked, saying so.
     */
    synchronized void finish() {
        complete = true;
        if (rowCount > 0) {
            try {
                Files.deleteIfExists(dir.resolve(RunFolders.PARTIAL));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            mark("finished without a single row");
        }
    }

    /**
     * The run was interrupted (SIGINT, SIGTERM): marks the folder partial with how far it got and prints
     * {@code interrupted: N of M rows kept in <folder>}. Nothing when already complete.
     *
     * @return whether it was still running
     */
    synchronized boolean interrupt(PrintStream out) {
        if (complete || interrupted) {
            return false;
        }
        interrupted = true;
        String how = String.format("interrupted after %d of %d runs", runsDone, runsPlanned);
        String rowsKept = String.format("%d of %d rows kept", rowCount, rowsPlanned);
        mark(how + " (" + rowsKept + ")");
        out.printf("%ninterrupted: %d of %d rows kept in %s (%s; JMH's \"VM prematurely exited\" lines that may"
                + " follow are its forks, stopped by the same signal)%n", rowCount, rowsPlanned, dir, how);
        out.flush();
        return true;
    }

    /** The folder. */
    Path dir() {
        return dir;
    }

    /** The file a suite's rows go to. */
    Path json(String suite) {
        return dir.resolve(suite + ".json");
    }

    private void mark(String line) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(RunFolders.PARTIAL), line + System.lineSeparator(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark " + dir + " partial", e);
        }
    }

    /** Writes {@code results} as JMH's JSON to {@code file}, replacing it in one rename. */
    static void write(Path file, List<RunResult> results) {
        // Not *.json: the report must never read a half-written file as a result file.
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        try {
            try (PrintStream ps = new PrintStream(Files.newOutputStream(tmp), false, StandardCharsets.UTF_8)) {
                ResultFormatFactory.getInstance(ResultFormatType.JSON, ps).writeOut(results);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The partial marker's line, if the folder has one. */
    Optional<String> partial() {
        return RunFolders.partial(dir);
    }
}
