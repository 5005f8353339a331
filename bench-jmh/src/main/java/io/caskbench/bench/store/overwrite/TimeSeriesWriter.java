package io.caskbench.bench.store.overwrite;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a time series as CSV, {@link IntervalSample#HEADER} first, one line per interval, each flushed as
 * it is written so a run stopped midway keeps what it measured. Used by the one thread that runs the
 * intervals; {@link #close()} is idempotent.
 */
public final class TimeSeriesWriter implements AutoCloseable {

    /** Touched by the measuring thread only. */
    private final BufferedWriter out;
    private boolean closed;

    /** Creates {@code file} (and its folder), replacing an earlier one, and writes the header. */
    public TimeSeriesWriter(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            out.write(IntervalSample.HEADER);
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the time series " + file, e);
        }
    }

    /** Appends one interval. */
    public void write(IntervalSample sample) {
        try {
            out.write(sample.csv());
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the time series", e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
