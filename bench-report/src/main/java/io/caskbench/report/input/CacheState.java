package io.caskbench.report.input;

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
 * eviction is, per row, its secondary metrics (see {@link #rowEvidence}), or else, for the whole
 * folder, {@code <results>/files-cache.json} holding
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
            return "Cold rows count as cold only when their own counters show verified evictions "
                    + "(coldDropCaches or coldFadvise above 0, coldUnverified 0)";
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
        Optional<Boolean> own = rowEvidence(r);
        return own.isPresent() ? own.get() : evicted.orElse(false);
    }

    /**
     * What the row's own secondary metrics say. The files suite counts, per iteration, invocations
     * that started after a verified eviction ({@code coldDropCaches}, {@code coldFadvise}) and those
     * whose files were still cached ({@code coldUnverified}); a single unverified invocation means the
     * figure is not a cold one. A metric named like {@code evicted} counts as verified evictions.
     * Empty when the row has no such metric.
     */
    static Optional<Boolean> rowEvidence(JmhResult r) {
        boolean any = false;
        double verified = 0;
        double unverified = 0;
        for (Map.Entry<String, Metric> m : r.secondaryMetrics().entrySet()) {
            String name = m.getKey().toLowerCase(Locale.ROOT);
            double score = m.getValue().score();
            if (name.equals("coldunverified")) {
                any = true;
                unverified += score;
            } else if (name.startsWith("cold") || name.contains("evict")) {
                any = true;
                verified += score;
            }
        }
        return any ? Optional.of(unverified == 0 && verified > 0) : Optional.empty();
    }

    /** How a row's cache was evicted, from the name of its non-zero eviction counter ("drop_caches"). */
    static Optional<String> rowMethod(JmhResult r) {
        for (Map.Entry<String, Metric> m : r.secondaryMetrics().entrySet()) {
            String name = m.getKey().toLowerCase(Locale.ROOT);
            if (m.getValue().score() > 0 && name.startsWith("cold") && !name.equals("coldunverified")) {
                String how = name.substring("cold".length());
                return Optional.of(how.equals("dropcaches") ? "drop_caches" : how);
            }
        }
        return Optional.empty();
    }

    /** A short label for cold rows ("cold, evicted" or a warning); empty for every other row. */
    public Optional<String> note(JmhResult r) {
        if (!isColdRequested(r)) {
            return Optional.empty();
        }
        if (reallyCold(r)) {
            return Optional.of("cold, evicted" + rowMethod(r).map(m -> " (" + m + ")").orElse(""));
        }
        return Optional.of("NOT cold: not evicted");
    }
}
