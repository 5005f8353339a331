package io.caskbench.report;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

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

    /** Reads one JMH JSON file (a JSON array of results). */
    public static ResultFile read(Path file) {
        try {
            JsonNode tree = Json.MAPPER.readTree(file.toFile());
            if (tree == null || !tree.isArray()) {
                throw new IOException("not a JMH result array (expected [ {benchmark, mode, primaryMetric, ...} ])");
            }
            List<JmhResult> results = Json.MAPPER.convertValue(tree, LIST);
            return new ResultFile(stem(file), file, results);
        } catch (IOException | IllegalArgumentException e) {
            throw new UncheckedIOException(new IOException("cannot read JMH results from " + file + ": " + e.getMessage(), e));
        }
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

    private static boolean isResultCandidate(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!Files.isRegularFile(p) || !n.endsWith(".json") || n.equals(Machine.FILE_NAME)) {
            return false;
        }
        try {
            // Cheap sniff so side files (objects) are skipped silently instead of reported as broken.
            try (var in = Files.newBufferedReader(p)) {
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

    /** {@code store.json} -> {@code store}. */
    static String stem(Path file) {
        String n = file.getFileName().toString();
        return n.toLowerCase(Locale.ROOT).endsWith(".json") ? n.substring(0, n.length() - 5) : n;
    }
}
