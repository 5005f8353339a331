package io.caskbench.report.input;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * One JMH JSON result file: {@code <results>/S.json} or {@code <results>/S-something.json}.
 *
 * @param name the file name without {@code .json}, such as {@code store} or {@code shm-c}
 * @param path where it was read from
 * @param results its entries, in file order
 */
public record ResultFile(String name, Path path, List<JmhResult> results) {

    private static final TypeReference<List<JmhResult>> LIST = new TypeReference<>() { };

    /** Copies the list so the record stays immutable. */
    public ResultFile {
        results = List.copyOf(results);
    }

    /** Reads one JMH JSON file (a JSON array of results), gzip-compressed when its name ends in {@code .gz}. */
    public static ResultFile read(Path file) {
        try (InputStream in = open(file)) {
            JsonNode tree = Json.MAPPER.readTree(in);
            if (tree == null || !tree.isArray()) {
                throw new IOException("not a JMH result array (expected [ {benchmark, mode, primaryMetric, ...} ])");
            }
            List<JmhResult> results = Json.MAPPER.convertValue(tree, LIST);
            return new ResultFile(stem(file), file, results);
        } catch (IOException | IllegalArgumentException e) {
            throw new UncheckedIOException(new IOException("cannot read JMH results from " + file + ": " + e.getMessage(), e));
        }
    }

    /** The file's bytes, uncompressed when its name ends in {@code .gz} (a committed run's JSON). */
    static InputStream open(Path file) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file));
        return file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
    }

    /**
     * Every JMH result file in a folder, sorted by name. Files that are not JSON arrays (machine.json,
     * side files such as files-cache.json) are skipped, as is anything that does not parse: one broken
     * file must not hide the others.
     */
    public static List<ResultFile> listIn(Path dir) {
        List<ResultFile> files = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                if (isResultCandidate(p)) {
                    try {
                        files.add(read(p));
                    } catch (UncheckedIOException e) {
                        System.err.println("[report] skipping " + p.getFileName() + ": " + e.getCause().getMessage());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /** Reads a folder (every result file in it) or a single file, as one list of results. */
    public static List<JmhResult> readAll(Path folderOrFile) {
        if (Files.isDirectory(folderOrFile)) {
            return listIn(folderOrFile).stream().flatMap(f -> f.results().stream()).toList();
        }
        return read(folderOrFile).results();
    }

    /** Whether a file looks like JMH results: a {@code .json} or {@code .json.gz} holding an array. */
    static boolean isResultCandidate(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!Files.isRegularFile(p) || !(n.endsWith(".json") || n.endsWith(".json.gz")) || n.equals(Machine.FILE_NAME)) {
            return false;
        }
        try {
            // Cheap sniff so side files (objects) are skipped silently instead of reported as broken.
            try (var in = new java.io.InputStreamReader(open(p), java.nio.charset.StandardCharsets.UTF_8)) {
                int c;
                do {
                    c = in.read();
                } while (c != -1 && Character.isWhitespace(c));
                return c == '[';
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code store.json} or {@code store.json.gz} -> {@code store}. */
    static String stem(Path file) {
        String n = file.getFileName().toString();
        String lower = n.toLowerCase(Locale.ROOT);
        return lower.endsWith(".json") ? n.substring(0, n.length() - 5)
                : lower.endsWith(".json.gz") ? n.substring(0, n.length() - 8) : n;
    }

    /** The results file of {@code name} in a run folder: {@code name.json}, or {@code name.json.gz} in a committed run. */
    public static Optional<Path> in(Path folder, String name) {
        for (String ext : List.of(".json", ".json.gz")) {
            Path p = folder.resolve(name + ext);
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
