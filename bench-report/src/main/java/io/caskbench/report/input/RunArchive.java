package io.caskbench.report.input;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Copies a run folder into the repository as a committed run, {@code docs/runs/<run-folder-name>/}, so that
 * every published block can be regenerated and audited from what is committed.
 *
 * <p>JMH's JSON result files, the run log and the time series a suite writes beside its results (the
 * overwrite suite's {@code .csv} per fork) are gzip-compressed ({@code store.json.gz}, {@code run.log.gz},
 * {@code overwrite-....csv.gz});
 * the machine description ({@code machine.json}) and the runner's small side files (the command of each suite,
 * the rows stopped at their time limit, the CPU's cache size) are copied as they are. The comparison files
 * the runner renders from the JSON are left out: they are regenerated, not archived. The gzip header holds
 * no time, so archiving the same run twice gives the same bytes. A committed run is never overwritten.
 */
public final class RunArchive {

    /** Where committed runs live, relative to the repository root. */
    public static final String RUNS = "docs/runs";

    private RunArchive() {
    }

    /**
     * Archives {@code run} into {@code runs/<run's folder name>}.
     *
     * @param run a run folder (not a results root)
     * @param runs the folder committed runs live in, normally {@link #RUNS} of the checkout
     * @return the committed run's folder
     * @throws IllegalArgumentException when {@code run} holds no JMH results or the target already exists
     */
    public static Path archive(Path run, Path runs) {
        Path source = run.toAbsolutePath().normalize();
        if (ResultFile.listIn(source).isEmpty()) {
            throw new IllegalArgumentException("no JMH results in " + source + ": give one run folder, such as"
                    + " results/2026-11-24T13-00-44-store");
        }
        Path target = runs.resolve(source.getFileName().toString());
        if (Files.exists(target)) {
            throw new IllegalArgumentException(target + " exists: a committed run is never overwritten");
        }
        try {
            Files.createDirectories(target);
            for (Path file : files(source)) {
                String name = file.getFileName().toString();
                String lower = name.toLowerCase(Locale.ROOT);
                if (lower.endsWith(".log") || lower.endsWith(".csv")
                        || lower.endsWith(".json") && ResultFile.isResultCandidate(file)) {
                    gzip(file, target.resolve(name + ".gz"));
                } else if (lower.endsWith(".json") || lower.endsWith(".txt") && !generated(lower)) {
                    Files.copy(file, target.resolve(name), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot archive " + source + " into " + target, e);
        }
    }

    /** The comparison files the runner renders from the JSON: regenerated, never archived. */
    private static boolean generated(String lowerName) {
        return lowerName.endsWith("-comparison.txt") || lowerName.endsWith("-ratios.txt");
    }

    private static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return new ArrayList<>(s.filter(Files::isRegularFile).sorted().toList());
        }
    }

    private static void gzip(Path from, Path to) throws IOException {
        try (InputStream in = Files.newInputStream(from);
             OutputStream out = new GZIPOutputStream(Files.newOutputStream(to), 1 << 16)) {
            in.transferTo(out);
        }
    }
}
