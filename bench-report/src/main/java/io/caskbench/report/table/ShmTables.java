package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Json;
import io.caskbench.report.input.Metric;
import io.caskbench.report.rule.ShmRule;
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
import java.util.OptionalLong;

/**
 * bench-shm's comparison, from the run's JSON ({@code shm.json}, {@code shm-c.json},
 * {@code shm-messaging.json}): Java against C for random 1-byte writes and whole-region clears per region
 * size, and shared memory against UDP for messaging, every ratio with its 95% bootstrap interval. Beside the
 * tables it states only what the rows show: the range of {@code put(i,b)} against C over every backing,
 * the byte[] rows, whether the position generator hides the store, and how large each region is against
 * the L3 cache of the machine that ran it.
 *
 * <p>bench-shm writes {@link #render} into {@code shm-ratios.txt}; {@code report docs} writes it into
 * docs/shm.md.
 */
public final class ShmTables {

    /** Side file of a bench-shm run with the L3 cache size it read ({@code {"l3CacheBytes": n}}). */
    public static final String CPU_FILE = "shm-cpu.json";
    /** The UDP transports: blocking sockets, and non-blocking ones polled in a spin. */
    public static final List<String> UDP = List.of("udp", "udp-spin");

    private static final String W = "io.caskbench.shm.RandomWriteBench.";
    private static final String CL = "io.caskbench.shm.ClearBench.";
    private static final String H = "io.caskbench.shm.HeapArrayBench.";
    private static final String P = "io.caskbench.shm.PrngBench.";
    private static final String C = ShmRule.C_PREFIX + "RegionAnchor.";
    private static final String MSG = "io.caskbench.shm.msg.Messaging.";

    /** A table row: label, Java backing ({@code null}: the byte[] baseline, blank: C only) and C backing. */
    private record Row(String label, String javaBacking, String cBacking) {
    }

    private static final List<Row> ROWS = List.of(
            new Row("disk file, mapped", "disk", "disk"),
            new Row("/dev/shm file, mapped", "shm", "shm"),
            new Row("shmget (C only)", "", "shmget"),
            new Row("direct / C anonymous", "direct", "anon"),
            new Row("heap BB / C anonymous", "heap", "anon"),
            new Row("byte[] / C anonymous", null, "anon"));

    private static final Map<String, String> WRITES = ordered("seedGetPut", "seed get+put", "absolutePut",
            "put(i,b)", "varHandleWord", "VarHandle", "segmentSet", "segment");
    private static final Map<String, String> CLEARS = ordered("seedNewArray", "seed new[]", "reusedZeroArray",
            "reused[]", "putLongLoop", "putLong", "segmentFill", "seg.fill");

    private final List<JmhResult> rows;

    private ShmTables(List<JmhResult> rows) {
        this.rows = rows;
    }

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    /**
     * The comparison of one run.
     *
     * @param rows every row of shm.json, shm-c.json and shm-messaging.json
     * @param l3CacheBytes the L3 size of the machine that ran it, when known
     */
    public static Document render(List<JmhResult> rows, OptionalLong l3CacheBytes) {
        ShmTables t = new ShmTables(rows);
        Document doc = new Document();
        doc.line("Times per operation; every Java/C ratio is followed by its 95% interval from a bootstrap over")
                .line("forks (iterations nested in forks). 1.00 = as fast as C. A Java variant is called faster or")
                .line("slower than C only where the whole interval is on one side of 1; with fewer than "
                        + Spread.PUBLISHED_FORKS + " forks")
                .line("that call is indicative.");
        for (String region : t.regions()) {
            t.writes(doc, region, l3CacheBytes);
            t.clears(doc, region);
        }
        t.messaging(doc);
        return doc;
    }

    /** The L3 size a bench-shm run recorded in {@link #CPU_FILE} beside its results, when it did. */
    public static OptionalLong l3(java.nio.file.Path results) {
        java.nio.file.Path file = results.resolve(CPU_FILE);
        if (!java.nio.file.Files.isRegularFile(file)) {
            return OptionalLong.empty();
        }
        try {
            com.fasterxml.jackson.databind.JsonNode bytes = Json.MAPPER.readTree(file.toFile()).get("l3CacheBytes");
            return bytes != null && bytes.canConvertToLong() && bytes.asLong() > 0 ? OptionalLong.of(bytes.asLong())
                    : OptionalLong.empty();
        } catch (java.io.IOException e) {
            return OptionalLong.empty();
        }
    }

    /** Region sizes present, smallest first. */
    private List<String> regions() {
        return rows.stream().map(r -> r.params().get("region")).filter(java.util.Objects::nonNull).distinct()
                .sorted(Comparator.comparingLong(ShmTables::bytes)).toList();
    }

    /** {@code 64KiB}, {@code 256MiB}, {@code 1GiB} or a byte count, in bytes. */
    static long bytes(String region) {
        String t = region.trim().toUpperCase(Locale.ROOT);
        long unit = t.endsWith("KIB") ? 1L << 10 : t.endsWith("MIB") ? 1L << 20 : t.endsWith("GIB") ? 1L << 30 : 1;
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 3)) * unit;
    }

    private Optional<JmhResult> find(String benchmark, String region, String backing) {
        return rows.stream().filter(r -> r.benchmark().equals(benchmark))
                .filter(r -> region.equals(r.params().get("region")))
                .filter(r -> backing == null || backing.equals(r.params().get("backing"))).findFirst();
    }

    private void writes(Document doc, String region, OptionalLong l3) {
        doc.heading("Random 1-byte write, region " + region + ", ns per write");
        if (l3.isPresent()) {
            double times = (double) bytes(region) / l3.getAsLong();
            doc.line(String.format(Locale.ROOT, "The region is %s the L3 cache (%s) of the machine that ran it.",
                    times >= 1 ? String.format(Locale.ROOT, "%.1fx", times)
                            : String.format(Locale.ROOT, "1/%.0f of", 1 / times),
                    l3.getAsLong() % (1 << 20) == 0 ? (l3.getAsLong() >> 20) + " MiB" : (l3.getAsLong() >> 10) + " KiB"));
        }
        table(doc, region, WRITES, "C write", C + "write", W, H + "arrayStore", 1);
        Optional<JmhResult> prng = find(C + "prng", region, "anon");
        Optional<JmhResult> cWrite = find(C + "write", region, "anon");
        Optional<JmhResult> javaPrng = find(P + "xorshift", region, null);
        doc.line(String.format(Locale.ROOT, "The position generator alone: Java %s ns, C %s ns. The reference loops:"
                        + " Java Random.nextInt alone %s ns, C rand() + memcpy write on /dev/shm %s ns.",
                ns(javaPrng), ns(prng), ns(find(P + "jdkRandom", region, null)), ns(find(C + "writeLibcRand", region, "shm"))));
        if (prng.isPresent() && cWrite.isPresent()
                && prng.get().primaryMetric().score() >= 0.8 * cWrite.get().primaryMetric().score()) {
            doc.line(String.format(Locale.ROOT, "At this size the generator's dependency chain takes %.0f%% of C's"
                    + " time per write, so the store hides behind it: this row compares loop overheads, not writes.",
                    100 * prng.get().primaryMetric().score() / cWrite.get().primaryMetric().score()));
        }
        claims(doc, region);
    }

    /** The range of put(i,b) and of byte[] against C over the rows that have both, intervals included. */
    private void claims(Document doc, String region) {
        List<String> parts = new ArrayList<>();
        for (Row row : ROWS) {
            if (row.javaBacking() == null || row.javaBacking().isEmpty()) {
                continue;
            }
            Spread s = Spread.of(find(W + "absolutePut", region, row.javaBacking()).orElse(null),
                    find(C + "write", region, row.cBacking()).orElse(null));
            if (!Double.isNaN(s.value())) {
                parts.add((row.javaBacking() + " " + s.cell() + " " + reading(s)).strip());
            }
        }
        Spread array = Spread.of(find(H + "arrayStore", region, null).orElse(null),
                find(C + "write", region, "anon").orElse(null));
        if (!parts.isEmpty()) {
            doc.line("put(i,b) / C write, per backing: " + String.join("; ", parts)
                    + (Double.isNaN(array.value()) ? "." : ("; byte[] " + array.cell() + " " + reading(array)).strip() + "."));
        }
    }

    /** For a Java/C time ratio: faster or slower than C outside the interval, else no difference shown. */
    private static String reading(Spread s) {
        String indicative = s.indicative() ? ", indicative" : "";
        return switch (s.verdict(false)) {
            case WIN -> "(faster than C" + indicative + ")";
            case LOSS -> "(slower than C" + indicative + ")";
            case UNDETERMINED -> s.hasSpread() ? "(no difference from C shown" + indicative + ")" : "";
        };
    }

    private void clears(Document doc, String region) {
        doc.heading("Clear whole region, region " + region + ", us per clear");
        table(doc, region, CLEARS, "C memset", C + "clear", CL, H + "arrayFill", 1000);
    }

    /** One Java-vs-C table; {@code divisor} turns nanoseconds into the table's unit. */
    private void table(Document doc, String region, Map<String, String> java, String cTitle, String cName,
            String javaPrefix, String arrayName, double divisor) {
        List<String> headers = new ArrayList<>(List.of("backing", cTitle));
        headers.addAll(java.values());
        headers.addAll(List.of("byte[]", "closest Java / C (95% interval)"));
        Table table = new Table(headers.toArray(new String[0]));
        for (Row row : ROWS) {
            Optional<JmhResult> c = find(cName, region, row.cBacking());
            List<String> cells = new ArrayList<>(List.of(row.label(), num(c, divisor)));
            JmhResult best = null;
            String bestName = null;
            for (Map.Entry<String, String> method : java.entrySet()) {
                Optional<JmhResult> j = row.javaBacking() == null || row.javaBacking().isEmpty() ? Optional.empty()
                        : find(javaPrefix + method.getKey(), region, row.javaBacking());
                cells.add(num(j, divisor));
                if (j.isPresent() && (best == null || j.get().primaryMetric().score() < best.primaryMetric().score())) {
                    best = j.get();
                    bestName = method.getValue();
                }
            }
            Optional<JmhResult> array = row.javaBacking() == null ? find(arrayName, region, null) : Optional.empty();
            cells.add(num(array, divisor));
            if (array.isPresent()) {
                best = array.get();
                bestName = "byte[]";
            }
            cells.add(best != null && c.isPresent() ? bestName + " " + Spread.of(best, c.get()).cell() : "-");
            table.row(cells);
        }
        doc.table(table);
    }

    private void messaging(Document doc) {
        List<JmhResult> msg = rows.stream().filter(r -> r.benchmark().startsWith(MSG)).toList();
        if (msg.isEmpty()) {
            return;
        }
        doc.heading("Messaging, Java client: round-trip latency (us)");
        Table rtt = new Table("peer", "payload", "shm p50", "udp p50", "udp-spin p50", "shm p99", "udp p99",
                "udp-spin p99", "udp / shm p50 (95% interval)", "udp-spin / shm p50 (95% interval)");
        Table oneWay = new Table("peer", "payload", "shm msg/s", "udp msg/s", "udp-spin msg/s", "shm / udp (95% interval)",
                "shm / udp-spin (95% interval)");
        for (String peer : List.of("java", "c")) {
            for (String payload : msg.stream().map(r -> r.params().get("payload")).distinct()
                    .sorted(Comparator.comparingInt(Integer::parseInt)).toList()) {
                Map<String, Optional<JmhResult>> round = new LinkedHashMap<>();
                Map<String, Optional<JmhResult>> flow = new LinkedHashMap<>();
                for (String transport : List.of("shm", "udp", "udp-spin")) {
                    round.put(transport, message("roundTrip", transport, peer, payload));
                    flow.put(transport, message("oneWay", transport, peer, payload));
                }
                if (round.values().stream().anyMatch(Optional::isPresent)) {
                    rtt.row(peer, payload, pct(round.get("shm"), "50.0"), pct(round.get("udp"), "50.0"),
                            pct(round.get("udp-spin"), "50.0"), pct(round.get("shm"), "99.0"),
                            pct(round.get("udp"), "99.0"), pct(round.get("udp-spin"), "99.0"),
                            p50Ratio(round.get("udp"), round.get("shm")), p50Ratio(round.get("udp-spin"), round.get("shm")));
                }
                if (flow.values().stream().anyMatch(Optional::isPresent)) {
                    oneWay.row(peer, payload, num(flow.get("shm"), 1), num(flow.get("udp"), 1),
                            num(flow.get("udp-spin"), 1), Spread.of(flow.get("shm").orElse(null),
                                    flow.get("udp").orElse(null)).cell(),
                            Spread.of(flow.get("shm").orElse(null), flow.get("udp-spin").orElse(null)).cell());
                }
            }
        }
        doc.table(rtt);
        doc.heading("Messaging, Java client: one-way throughput (messages per second)");
        doc.table(oneWay);
        doc.line("Both shared-memory sides wait by spinning, then yielding, then napping. udp uses blocking")
                .line("sockets, so each message also pays a sleep and a wake-up; udp-spin uses non-blocking sockets")
                .line("polled with the same spin-yield-nap wait as shared memory, so it compares the transports")
                .line("alone. The like-for-like comparison is shm against udp-spin.");
    }

    private Optional<JmhResult> message(String method, String transport, String peer, String payload) {
        return rows.stream().filter(r -> r.benchmark().equals(MSG + method))
                .filter(r -> transport.equals(r.params().get("transport")) && peer.equals(r.params().get("peer"))
                        && payload.equals(r.params().get("payload"))).findFirst();
    }

    private static String pct(Optional<JmhResult> r, String percentile) {
        return r.map(x -> x.primaryMetric().scorePercentiles().get(percentile)).map(v -> format(v)).orElse("-");
    }

    /** The ratio of two medians, with the spread of the per-fork medians each run recorded ({@code p50}). */
    private static String p50Ratio(Optional<JmhResult> a, Optional<JmhResult> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return "-";
        }
        Metric ma = a.get().secondaryMetrics().get("p50");
        Metric mb = b.get().secondaryMetrics().get("p50");
        if (ma == null || mb == null) {
            Double pa = a.get().primaryMetric().scorePercentiles().get("50.0");
            Double pb = b.get().primaryMetric().scorePercentiles().get("50.0");
            return pa == null || pb == null ? "-" : Table.ratio(pa, pb);
        }
        return Spread.of(ma, mb).cell();
    }

    private static String ns(Optional<JmhResult> r) {
        return num(r, 1);
    }

    private static String num(Optional<JmhResult> r, double divisor) {
        return r.map(x -> format(x.primaryMetric().score() / divisor)).orElse("-");
    }

    private static String format(double x) {
        return String.format(Locale.ROOT, x >= 1000 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f", x);
    }
}
