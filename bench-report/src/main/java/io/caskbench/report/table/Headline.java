package io.caskbench.report.table;

import io.caskbench.report.chart.Charts;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.rule.Suites;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The README's headline, from the store suite: one chart of every store's single-thread get and put, and
 * three rows (get and put at one thread, and disk bytes per key) that set BitCask MAPPED beside the best
 * peer, each ratio with its 95% bootstrap interval and its reading. The 1000-thread rows come from a run of
 * their own suite and have a block of their own ({@link ThreadsTables}). The best peer is the best of all peers: a row where one of
 * them did not run reads "not comparable". Everything comes from the run; a row the run lacks says so
 * instead of being left out.
 */
public final class Headline {

    /** The chart's file name, in the images folder {@code report docs} is given. */
    public static final String CHART = "store-headline.svg";

    /** The roles the chart shows: the stores. */
    private static final Set<StoreCatalog.Role> CHARTED = Set.of(StoreCatalog.Role.BITCASK, StoreCatalog.Role.PEER);

    /** The command of the suite that measures the 1000-thread rows, named under the table. */
    static final String THREADS_COMMAND =
            "./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests -Dcaskbench.suites=threads";

    /** What the stores leave for later instead of doing inside a put, one sentence under the table. */
    static final String DEFERS = "What each store defers past a put: BitCask (SyncPolicy.NONE) its forces and its"
            + " hint files to close; RocksDB its memtable flushes and compactions to background threads; LMDB"
            + " (MDB_NOSYNC), Chronicle Map and MapDB the write-back of their mapped pages to the kernel; H2 MVStore"
            + " its commits to a background thread, about once a second.";

    private Headline() {
    }

    /**
     * Renders the headline and writes its chart.
     *
     * @param results the store suite's rows
     * @param machine who measured it and when, printed on the chart
     * @param images the folder the chart is written into (created when missing)
     * @param link how the Markdown file reaches that folder, e.g. {@code docs/img}
     */
    public static Document render(List<JmhResult> results, String machine, Path images, String link) {
        StoreRows rows = new StoreRows(results);
        Document doc = new Document();
        List<JmhResult> charted = Stream.of("get", "put")
                .flatMap(m -> rows.atPoint("PeersSingleThread", m).stream())
                .filter(r -> CHARTED.contains(StoreCatalog.role(StoreRows.store(r))))
                .sorted(Comparator.comparing(JmhResult::methodName).thenComparing(StoreRows.BY_STORE)).toList();
        if (!charted.isEmpty()) {
            writeChart(charted, machine, images);
            doc.line("![Single-thread get and put of every store, ops/s](" + link + "/" + CHART + ")");
        }
        Table table = new Table("at 1M keys, 16-byte keys, 100-byte values, random order", "BitCask MAPPED",
                "best peer", "peer's figure", "BitCask / peer (95% interval)", "reading");
        List<String> notes = new ArrayList<>();
        throughput(table, notes, rows, "get, 1 thread", "PeersSingleThread", "get");
        throughput(table, notes, rows, "put, 1 thread", "PeersSingleThread", "put");
        disk(table, notes, rows);
        doc.table(table);
        doc.line("Durability: BitCask runs with SyncPolicy.NONE and no store here forces per write, so none keeps")
                .line("a write through a power loss by contract; what each keeps through a kill -9 is in the store")
                .line("results.")
                .line(DEFERS);
        doc.line("Ops/s unless named. The interval is 95%, from a bootstrap over forks (iterations nested in")
                .line("forks); a win or a loss is called only when all of it lies on one side of 1, and a verdict")
                .line("from fewer than " + Spread.PUBLISHED_FORKS + " forks is indicative. Best peer: the fastest"
                        + " of all of RocksDB, LMDB,")
                .line("Chronicle Map, MapDB and H2 MVStore at their main settings (the smallest, for disk); a row")
                .line("where any of them did not run is not comparable. The 1000-thread rows have a block of their")
                .line("own, from a run of the `threads` suite: `" + THREADS_COMMAND + "`.");
        notes.forEach(doc::line);
        return doc;
    }

    private static void throughput(Table table, List<String> notes, StoreRows rows, String label, String className,
            String method) {
        List<JmhResult> group = rows.atPoint(className, method);
        Optional<JmhResult> ours = StoreRows.find(group, StoreRows.MAPPED);
        Optional<JmhResult> best = StoreRows.bestPeer(group);
        if (ours.isEmpty() || best.isEmpty()) {
            table.row(label, ours.map(r -> Table.score(r.primaryMetric().score())).orElse("-"), "-", "-", "-",
                    "not in this run");
            return;
        }
        // The best of some peers is not the best peer: a row missing one is not judged at all.
        if (notComparable(table, notes, label, ours.get().primaryMetric().score(), group)) {
            return;
        }
        Optional<String> shortForks = StoreRows.shortOfForks(ours.get(), best.get());
        if (shortForks.isPresent()) {
            table.row(label, Table.score(ours.get().primaryMetric().score()), "-", "-", "-", "not judged");
            notes.add(label + ": not judged, " + shortForks.get() + ".");
            return;
        }
        Spread s = Spread.of(ours.get(), best.get());
        table.row(label, Table.score(ours.get().primaryMetric().score()), StoreCatalog.label(StoreRows.store(best.get())),
                Table.score(best.get().primaryMetric().score()), s.cell(), s.reading(true));
    }

    /** Writes the row as not comparable, naming the missing peers, when a peer has no row in the group. */
    private static boolean notComparable(Table table, List<String> notes, String label, double ours,
            List<JmhResult> group) {
        List<String> absent = StoreRows.missingPeers(group);
        if (absent.isEmpty()) {
            return false;
        }
        table.row(label, label.startsWith("disk") ? oneDecimal(ours) : Table.score(ours), "-", "-", "-",
                "not comparable");
        notes.add(label.replaceFirst(" \\(.*", "") + ": not comparable, no row of " + String.join(", ", absent)
                + " at this point; the store results have what ran.");
        return true;
    }

    /**
     * Disk bytes per key of a filled store: the smallest peer is the best, and less is the win. (Not heap:
     * the native peers keep their data outside the Java heap, so theirs reads as nothing.)
     */
    private static void disk(Table table, List<String> notes, StoreRows rows) {
        String label = "disk bytes per key (less is better)";
        List<JmhResult> group = rows.atPoint("PeersSingleThread", "get");
        Optional<Metric> ours = StoreRows.find(group, StoreRows.MAPPED).map(r -> r.secondaryMetrics().get(StoreTables.DISK));
        Optional<JmhResult> best = group.stream()
                .filter(r -> StoreCatalog.role(StoreRows.store(r)) == StoreCatalog.Role.PEER)
                .filter(r -> r.secondaryMetrics().get(StoreTables.DISK) != null)
                .min(Comparator.comparingDouble(r -> r.secondaryMetrics().get(StoreTables.DISK).score()));
        if (ours.isEmpty() || best.isEmpty()) {
            table.row(label, "-", "-", "-", "-", "not in this run");
            return;
        }
        List<JmhResult> measured = group.stream().filter(r -> r.secondaryMetrics().get(StoreTables.DISK) != null).toList();
        if (notComparable(table, notes, label, ours.get().score(), measured)) {
            return;
        }
        Metric peer = best.get().secondaryMetrics().get(StoreTables.DISK);
        Spread s = Spread.of(ours.get(), peer);
        table.row(label, oneDecimal(ours.get().score()), StoreCatalog.label(StoreRows.store(best.get())),
                oneDecimal(peer.score()), s.cell(), s.reading(false));
    }

    private static String oneDecimal(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static void writeChart(List<JmhResult> rows, String machine, Path images) {
        Charts.Spec spec = new Charts.Spec("store", "every store, 1 thread", "ops/s", rows, false);
        Charts.svg(spec, Suites.STORE, machine, "headline-").writeTo(images.resolve(CHART));
    }
}
