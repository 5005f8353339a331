package io.caskbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a "cold cache" file-read result really ran with the page cache evicted. A result is only
 * labelled cold when the run says so; otherwise the report says that eviction did not happen.
 *
 * <p>The convention (docs/report.md): a cold row has the parameter {@code cache=cold}. Evidence of
 * eviction is, per row, a secondary metric whose name contains {@code evict} (score &gt; 0 means
 * evicted), or else, for the whole folder, {@code <results>/files-cache.json} holding
 * {@code {"evicted": true|false, "method": "...", "detail": "..."}}. No evidence means not evicted.
 *
 * @param evicted the folder-wide answer from files-cache.json, if the file exists
 * @param method how the files suite evicted, from files-cache.json (may be empty)
 * @param detail anything else it wanted to say, such as why it could not evict (may be empty)
 */
public record CacheState(Optional<Boolean> evicted, String method, String detail) {

    /** Name of the side file the files suite writes. */
    public static final String FILE_NAME = "files-cache.json";

    /** No side file: cold rows are believed only through their own secondary metric. */
    public static final CacheState NONE = new CacheState(Optional.empty(), "", "");

    /** Reads {@code <resultsDir>/files-cache.json}; {@link #NONE} when absent or unreadable. */
    public static CacheState read(Path resultsDir) {
        Path file = resultsDir.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return NONE;
        }
        try {
            JsonNode n = Json.MAPPER.readTree(file.toFile());
            JsonNode ev = n.get("evicted");
            return new CacheState(ev == null || !ev.isBoolean() ? Optional.empty() : Optional.of(ev.asBoolean()),
                    n.path("method").asText(""), n.path("detail").asText(""));
        } catch (IOException e) {
            return NONE;
        }
    }

    /** One sentence on how the cache was evicted, or why it could not be, for the report's notes. */
    public String explanation() {
        if (evicted.isEmpty()) {
            return "no " + FILE_NAME + " in the results: cold rows count as cold only with their own evict metric";
        }
        return (evicted.get() ? "page cache evicted" + (method.isBlank() ? "" : " by " + method)
                : "the run could not evict the page cache, so its cold rows ran warm")
                + (detail.isBlank() ? "" : " (" + detail + ")");
    }

    /** Whether the row asked for a cold cache ({@code cache=cold}, any case). */
    public static boolean isColdRequested(JmhResult r) {
        return r.params().entrySet().stream().anyMatch(e -> e.getKey().toLowerCase(Locale.ROOT).equals("cache")
                && e.getValue().toLowerCase(Locale.ROOT).startsWith("cold"));
    }

    /** Whether a cold row really ran on an evicted cache; false for rows that are not cold. */
    public boolean reallyCold(JmhResult r) {
        if (!isColdRequested(r)) {
            return false;
        }
        for (Map.Entry<String, Metric> m : r.secondaryMetrics().entrySet()) {
            if (m.getKey().toLowerCase(Locale.ROOT).contains("evict")) {
                return m.getValue().score() > 0;
            }
        }
        return evicted.orElse(false);
    }

    /** A short label for cold rows ("cold, evicted" or a warning); empty for every other row. */
    public Optional<String> note(JmhResult r) {
        if (!isColdRequested(r)) {
            return Optional.empty();
        }
        if (reallyCold(r)) {
            return Optional.of("cold, evicted");
        }
        return Optional.of("NOT cold: not evicted");
    }
}
