package io.caskbench.report.input;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/**
 * One folder per benchmark run under a results root, so that no run overwrites another: a run of the
 * store suite at 14:05:33 writes into {@code results/2026-11-22T14-05-33-store/}, and
 * {@code results/latest} points at the newest run.
 *
 * <p>{@code latest} is a relative symbolic link where the file system allows one, and otherwise a small
 * text file holding the run folder's name; {@link #latest(Path)} reads either. Commands that take a
 * results folder accept the root as well and then read its latest run ({@link #resolve(Path)}).
 */
public final class RunFolders {

    /** Name of the pointer to the newest run inside a results root. */
    public static final String LATEST = "latest";

    /**
     * Name of the file that marks a run folder as partial: a run still going, interrupted or stopped
     * before its end. It holds one line saying which; a finished run has none.
     */
    public static final String PARTIAL = "PARTIAL";

    /** Sortable, and free of characters some file systems refuse (no colons). */
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss", Locale.ROOT);

    private RunFolders() {
    }

    /** {@link #create(Path, String, Clock)} with the system clock. */
    public static Path create(Path root, String label) {
        return create(root, label, Clock.systemDefaultZone());
    }

    /**
     * Creates a new, empty run folder under {@code root} and points {@code root/latest} at it.
     *
     * @param root the results root (created if missing)
     * @param label what ran, such as {@code store} or {@code store+files}; reduced to file-name characters
     * @param clock the time the folder is named after
     * @return the new folder, absolute
     */
    public static Path create(Path root, String label, Clock clock) {
        Path run = createUnpointed(root, label, clock);
        try {
            pointLatest(root, run);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a run folder in " + root, e);
        }
        return run;
    }

    /**
     * Creates a new, empty run folder under {@code root} as {@link #create(Path, String, Clock)} does, but
     * leaves {@code root/latest} where it is: a runner points it with {@link #point} once the run has
     * something to show.
     */
    public static Path createUnpointed(Path root, String label, Clock clock) {
        String base = STAMP.format(LocalDateTime.now(clock)) + suffix(label);
        try {
            Files.createDirectories(root);
            Path run = root.resolve(base);
            // Two runs started in the same second get -2, -3...; createDirectory fails rather than share.
            for (int n = 2; ; n++) {
                try {
                    Files.createDirectory(run);
                    break;
                } catch (FileAlreadyExistsException e) {
                    run = root.resolve(base + "-" + n);
                }
            }
            return run.toAbsolutePath().normalize();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a run folder in " + root, e);
        }
    }

    private static String suffix(String label) {
        String clean = label == null ? "" : label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9+_-]+", "_");
        return clean.isEmpty() ? "" : "-" + clean;
    }

    /** Points {@code root/latest} at {@code run}, a folder in {@code root}. */
    public static void point(Path root, Path run) {
        try {
            pointLatest(root, run);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot point " + root.resolve(LATEST) + " at " + run, e);
        }
    }

    /**
     * The line of {@code run}'s {@link #PARTIAL} file, if it has one: the run is not complete.
     *
     * @return such as {@code interrupted after 3 of 9 runs}; empty for a complete run
     */
    public static Optional<String> partial(Path run) {
        Path marker = run.resolve(PARTIAL);
        try {
            return Files.isRegularFile(marker)
                    ? Optional.of(Files.readString(marker, StandardCharsets.UTF_8).trim()) : Optional.empty();
        } catch (IOException e) {
            return Optional.of("partial (its " + PARTIAL + " file cannot be read: " + e.getMessage() + ")");
        }
    }

    /** Replaces {@code root/latest} in one rename, so a reader never sees it missing. */
    private static void pointLatest(Path root, Path run) throws IOException {
        Path latest = root.resolve(LATEST);
        if (Files.isDirectory(latest) && !Files.isSymbolicLink(latest)) {
            throw new IOException(latest + " is a folder, not a pointer to a run; move it away");
        }
        Path tmp = root.resolve("." + LATEST + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        Path name = run.getFileName();
        try {
            Files.createSymbolicLink(tmp, name);
        } catch (UnsupportedOperationException | IOException | SecurityException e) {
            // Windows without the symlink privilege, or a file system without links: a file says the same.
            Files.writeString(tmp, name + System.lineSeparator(), StandardCharsets.UTF_8);
        }
        try {
            Files.move(tmp, latest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /**
     * The run {@code root/latest} points at, if there is one.
     *
     * @return the run folder, absolute; empty when {@code root} has no {@code latest}
     */
    public static Optional<Path> latest(Path root) {
        Path latest = root.resolve(LATEST);
        try {
            if (Files.isSymbolicLink(latest)) {
                return Optional.of(root.resolve(Files.readSymbolicLink(latest)).toAbsolutePath().normalize());
            }
            if (Files.isRegularFile(latest)) {
                String name = Files.readString(latest, StandardCharsets.UTF_8).trim();
                return name.isEmpty() ? Optional.empty() : Optional.of(root.resolve(name).toAbsolutePath().normalize());
            }
            if (Files.isDirectory(latest)) {
                return Optional.of(latest.toAbsolutePath().normalize());
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + latest, e);
        }
    }

    /**
     * The results root a run folder was made in: its parent, when that holds a {@code latest} pointer;
     * otherwise {@code folder} itself, which is then a results folder of its own.
     */
    public static Path rootOf(Path folder) {
        Path parent = folder.toAbsolutePath().normalize().getParent();
        return parent != null && Files.exists(parent.resolve(LATEST), java.nio.file.LinkOption.NOFOLLOW_LINKS)
                ? parent : folder;
    }

    /**
     * What a command given {@code path} should read: the latest run when {@code path} is a results root,
     * otherwise {@code path} itself (a run folder, an older flat results folder, or a JSON file).
     */
    public static Path resolve(Path path) {
        return Files.isDirectory(path) ? latest(path).orElse(path) : path;
    }
}
