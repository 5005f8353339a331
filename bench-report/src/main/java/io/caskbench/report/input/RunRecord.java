package io.caskbench.report.input;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The command that produced a suite's results, written by the runner beside them
 * ({@code <results>/<suite>-run.txt}) so that the generated docs can name it with the machine and date.
 */
public final class RunRecord {

    private RunRecord() {
    }

    private static Path file(Path results, String suite) {
        return results.resolve(suite + "-run.txt");
    }

    /** Records {@code command} as the one that produces {@code suite}'s results in {@code results}. */
    public static void write(Path results, String suite, String command) {
        try {
            Files.createDirectories(results);
            Files.writeString(file(results, suite), command + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The {@code -Dcaskbench.results=...} option a recorded command needs to write into {@code results}'s
     * results root (the root a run folder was made in; another folder is its own root): empty for the
     * default {@code results} folder of the working directory (the checkout), else the root, relative to the
     * working directory where it lies below it.
     */
    public static String resultsOption(Path results) {
        Path cwd = Path.of("").toAbsolutePath();
        Path dir = RunFolders.rootOf(results.toAbsolutePath().normalize());
        if (dir.equals(cwd.resolve("results"))) {
            return "";
        }
        return " -Dcaskbench.results=" + (dir.startsWith(cwd) ? cwd.relativize(dir) : dir);
    }

    /** The recorded command, if the runner left one. */
    public static Optional<String> read(Path results, String suite) {
        Path file = file(results, suite);
        try {
            return Files.isRegularFile(file) ? Optional.of(Files.readString(file, StandardCharsets.UTF_8).strip())
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
