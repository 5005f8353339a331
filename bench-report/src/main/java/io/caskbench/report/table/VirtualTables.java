package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The virtual suite's comparison ({@code virtual-comparison.txt} and the generated block of
 * docs/observability.md): for each operation (get, put, forced put) and store, the 1000-platform-thread row
 * and beside it the rows on 1000 and on 100,000 virtual threads, each with its throughput, its ratio to the
 * platform-thread row with a 95% bootstrap interval over forks, the {@code jdk.VirtualThreadPinned} events
 * of its measured iterations and the carriers the JDK added beyond the scheduler's parallelism.
 *
 * <p>The rows come from four benchmarks: {@code VirtualThreads} and {@code ThousandThreads} (get and put,
 * parameter {@code store}), {@code VirtualThreadsAlways} and {@code GroupCommit.gang} with {@code sync=ALWAYS}
 * (forced puts, parameter {@code backend}, shown as BitCask's store name). The counters are JMH
 * secondary metrics ({@code pinned}, {@code carriersAdded}) read from their raw data: pins summed over
 * every measured iteration of every fork, carriers the largest level any iteration saw.
 */
public final class VirtualTables {

    /** The platform-thread column's label. */
    static final String PLATFORM = "1,000 platform";

    private VirtualTables() {
    }

    /** One row's place in the tables: its operation, its store and its threads. */
    record Place(String operation, String store, String threads) {
    }

    /** The comparison of one run. */
    public static Document render(List<JmhResult> rows) {
        Map<String, Map<String, Map<String, JmhResult>>> byOperation = new LinkedHashMap<>();
        for (String operation : List.of("get", "put", "forced put")) {
            byOperation.put(operation, new LinkedHashMap<>());
        }
        for (JmhResult r : rows) {
            place(r).ifPresent(p -> byOperation.get(p.operation()).computeIfAbsent(p.store(), s -> new LinkedHashMap<>())
                    .put(p.threads(), r));
        }
        Document doc = new Document();
        doc.line("Each row: 100,000 operations per invocation shared by its threads (100 each on 1000 threads, one each on 100,000), total operations over the wall"
                        + " time, virtual-thread starts included.")
                .line("x platform = this row's throughput / the same store's on 1000 platform threads, with its 95%"
                        + " interval from a bootstrap over forks; above 1 the virtual threads are faster (with fewer than "
                        + Spread.PUBLISHED_FORKS + " forks, indicative).")
                .line("pinned = jdk.VirtualThreadPinned events in the measured iterations of all forks; carriers added"
                        + " = the most carriers the virtual-thread scheduler held beyond its parallelism, which it adds"
                        + " while carriers are blocked in file I/O or pinned (-1: the pool could not be read).");
        byOperation.forEach((operation, stores) -> {
            if (stores.isEmpty()) {
                return;
            }
            doc.heading(operation.equals("forced put") ? "forced put (SyncPolicy.ALWAYS)" : operation);
            Table table = new Table("store", "threads", "ops/s (fork means)", "x platform (95% interval)", "pinned",
                    "carriers added");
            stores.forEach((store, byThreads) -> {
                JmhResult platform = byThreads.get(PLATFORM);
                List<String> order = new ArrayList<>(byThreads.keySet());
                order.sort(Comparator.comparing((String t) -> !t.equals(PLATFORM)).thenComparingLong(VirtualTables::count));
                for (String threads : order) {
                    JmhResult r = byThreads.get(threads);
                    boolean virtual = r != platform;
                    table.row(store, threads, Spread.withForks(r.primaryMetric()),
                            virtual && platform != null ? Spread.of(r, platform).cell() : "",
                            virtual ? counter(r, "pinned", false) : "", virtual ? counter(r, "carriersAdded", true) : "");
                }
            });
            doc.table(table);
        });
        return doc;
    }

    /** Where a row goes, or empty for a row of another benchmark (or a platform row not forced). */
    static Optional<Place> place(JmhResult r) {
        String cls = StoreRows.cls(r);
        String method = r.methodName();
        Map<String, String> p = r.params();
        return switch (cls) {
            case "VirtualThreads" -> Optional.of(new Place(method, p.getOrDefault("store", "?"), virtual(p)));
            case "ThousandThreads" -> method.equals("get") || method.equals("put")
                    ? Optional.of(new Place(method, p.getOrDefault("store", "?"), PLATFORM)) : Optional.empty();
            case "VirtualThreadsAlways" -> Optional.of(new Place("forced put", bitcask(p), virtual(p)));
            case "GroupCommit" -> method.equals("gang") && "ALWAYS".equals(p.get("sync"))
                    ? Optional.of(new Place("forced put", bitcask(p), PLATFORM)) : Optional.empty();
            default -> Optional.empty();
        };
    }

    private static String virtual(Map<String, String> p) {
        String threads = p.getOrDefault("threads", "?");
        try {
            return String.format(Locale.ROOT, "%,d virtual", Long.parseLong(threads));
        } catch (NumberFormatException e) {
            return threads + " virtual";
        }
    }

    /** The thread count a label starts with, for ordering rows. */
    private static long count(String label) {
        try {
            return Long.parseLong(label.substring(0, label.indexOf(' ')).replace(",", ""));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String bitcask(Map<String, String> p) {
        return "BITCASK_" + p.getOrDefault("backend", "?");
    }

    /**
     * A counter of the row: the largest value over its iterations when {@code largest}, else their sum;
     * JMH's score when it kept no raw data; blank when the row has no such counter.
     */
    static String counter(JmhResult r, String name, boolean largest) {
        Metric m = r.secondaryMetrics().get(name);
        if (m == null) {
            return "";
        }
        List<Double> values = new ArrayList<>();
        m.rawData().forEach(values::addAll);
        if (values.isEmpty()) {
            return String.format(Locale.ROOT, "%.0f", m.score());
        }
        double v = largest ? values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)
                : values.stream().mapToDouble(Double::doubleValue).sum();
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
