package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The 1000-thread block, from a run of the {@code threads} suite: for each 1000-thread shape (get, put and a
 * 90/10 mix), BitCask MAPPED beside the best of all peers with the ratio's 95% bootstrap interval and its
 * reading, then every store's figures with what a kill -9 leaves. The shape (operations per thread, keys,
 * values, order) is read from the rows, never assumed; a method where any peer has no row at that shape
 * reads "not comparable" rather than crown the best of the rest.
 */
public final class ThreadsTables {

    /** The benchmark class of the 1000-thread rows. */
    static final String CLASS = "ThousandThreads";

    /** The command of the suite that measures these rows, named under the tables. */
    static final String COMMAND = Headline.THREADS_COMMAND;

    /** The methods in the order the block shows them, with how a reader names each. */
    private static final Map<String, String> METHODS = Map.of("get", "get", "put", "put",
            "mixed", "mixed, 9 gets to 1 overwrite");
    private static final List<String> ORDER = List.of("get", "put", "mixed");

    private ThreadsTables() {
    }

    /**
     * Renders the block's tables.
     *
     * @param results the threads suite's rows
     * @param stopped one line per 1000-thread invocation stopped at its time limit
     */
    public static Document render(List<JmhResult> results, List<String> stopped) {
        StoreRows rows = new StoreRows(results);
        Document doc = new Document();
        // One pair of tables per shape, which the three methods share (a run normally has one).
        Map<String, List<JmhResult>> byShape = rows.of(CLASS).stream().collect(Collectors.groupingBy(
                ThreadsTables::shape, LinkedHashMap::new, Collectors.toList()));
        if (byShape.isEmpty()) {
            doc.line("No 1000-thread rows in this run: run the `threads` suite (`" + COMMAND + "`).");
        }
        byShape.forEach((shape, group) -> shapeTables(doc, shape, group));
        doc.line("Ops/s = every operation of the 1000 threads over the wall time of the whole gang. The interval is")
                .line("95%, from a bootstrap over forks (iterations nested in forks); a win or a loss is called only when")
                .line("all of it lies on one side of 1, and a verdict from fewer than " + Spread.PUBLISHED_FORKS
                        + " forks is indicative. Best peer:")
                .line("the fastest of all of RocksDB, LMDB, Chronicle Map, MapDB and H2 MVStore at their main settings,")
                .line("at the same shape as BitCask; a method where any of them has no row is not comparable.")
                .line("Durability: BitCask runs with SyncPolicy.NONE and no store here forces per write, so none keeps")
                .line("a write through a power loss by contract; the kill -9 column says what each keeps through a")
                .line("kill of the process.")
                .line(Headline.DEFERS)
                .line("Reproduce: `" + COMMAND + "`.");
        if (!stopped.isEmpty()) {
            doc.heading("Stopped at the time limit (-Dcaskbench.gangLimitSeconds), so no figure above");
            stopped.forEach(doc::line);
        }
        return doc;
    }

    /** The shape of a row as a heading: its gang, keys, values and order. */
    private static String shape(JmhResult r) {
        Map<String, String> p = r.params();
        return "1000 threads x " + p.getOrDefault(StoreRows.GANG_OPS, "?") + " operations per invocation, "
                + count(p.get("keyCount")) + " keys, 16-byte keys, " + p.getOrDefault("valueSize", "?")
                + "-byte values, " + p.getOrDefault("order", "?").toLowerCase(java.util.Locale.ROOT) + " order";
    }

    private static String count(String keys) {
        return keys == null || !keys.matches("[0-9]+") ? "?" : Table.score(Long.parseLong(keys));
    }

    private static void shapeTables(Document doc, String shape, List<JmhResult> group) {
        doc.heading(shape);
        Table verdicts = new Table("1000 threads", "BitCask MAPPED", "best peer", "peer's figure",
                "BitCask / peer (95% interval)", "reading", "survives kill -9: BitCask / peer");
        List<String> notes = new ArrayList<>();
        for (String method : ORDER) {
            List<JmhResult> rows = group.stream().filter(r -> r.methodName().equals(method))
                    .filter(r -> !StoreRows.belowLabel(r)).toList();
            verdict(verdicts, notes, METHODS.get(method), rows);
        }
        doc.table(verdicts);
        notes.forEach(doc::line);
        Table stores = new Table("store", "get", "put", "mixed", "forks", "survives kill -9");
        for (StoreCatalog.Entry e : StoreCatalog.all()) {
            List<Optional<JmhResult>> cells = ORDER.stream().map(m -> group.stream()
                    .filter(r -> r.methodName().equals(m) && e.name().equals(StoreRows.store(r))).findFirst()).toList();
            if (cells.stream().allMatch(Optional::isEmpty)) {
                continue;
            }
            String forks = cells.stream().flatMap(Optional::stream).map(JmhResult::forksCell).distinct()
                    .collect(Collectors.joining(", "));
            stores.row(e.label(), cell(cells.get(0)), cell(cells.get(1)), cell(cells.get(2)), forks, e.crash());
        }
        doc.table(stores);
        JmhResult any = group.get(0);
        String keys = any.params().get("keyCount");
        String ops = any.params().get(StoreRows.GANG_OPS);
        boolean fresh = !"true".equals(any.params().get("prefilled"));
        if (fresh && keys != null && ops != null && ops.matches("[0-9]+")
                && keys.equals(String.valueOf(1000L * Long.parseLong(ops)))) {
            doc.line("As many keys as an invocation has operations: a put round fills a fresh store with every key")
                    .line("and closes it in measured time, a get invocation reads every key once, a mixed one reads or")
                    .line("overwrites every key once.");
        }
        doc.line("Ops/s; in brackets, how far apart the fork means were, as +- half their range. \"-\": no row")
                .line("(not run, stopped or failed: see the run log); \"below its label\": the store held fewer than")
                .line("0.9 of the keys the row is labelled with, so it is neither shown nor judged.");
    }

    private static String cell(Optional<JmhResult> r) {
        return r.map(x -> StoreRows.belowLabel(x) ? "below its label" : StoreTables.withRange(r)).orElse("-");
    }

    /** One verdict row: BitCask MAPPED against the best of all peers in {@code rows}, or why there is none. */
    private static void verdict(Table table, List<String> notes, String label, List<JmhResult> rows) {
        Optional<JmhResult> ours = StoreRows.find(rows, StoreRows.MAPPED);
        Optional<JmhResult> best = StoreRows.bestPeer(rows);
        String oursCell = ours.map(r -> Table.score(r.primaryMetric().score())).orElse("-");
        String oursCrash = StoreCatalog.crash(StoreRows.MAPPED);
        if (ours.isEmpty() || best.isEmpty()) {
            table.row(label, oursCell, "-", "-", "-", "not in this run", oursCrash + " / -");
            return;
        }
        List<String> absent = StoreRows.missingPeers(rows);
        if (!absent.isEmpty()) {
            // The best of some peers is not the best peer.
            table.row(label, oursCell, "-", "-", "-", "not comparable", oursCrash + " / -");
            notes.add(label + ": not comparable, no row of " + String.join(", ", absent) + " at this shape.");
            return;
        }
        Optional<String> shortForks = StoreRows.shortOfForks(ours.get(), best.get());
        if (shortForks.isPresent()) {
            table.row(label, oursCell, "-", "-", "-", "not judged", oursCrash + " / -");
            notes.add(label + ": not judged, " + shortForks.get() + ".");
            return;
        }
        Spread s = Spread.of(ours.get(), best.get());
        String peer = StoreRows.store(best.get());
        table.row(label, oursCell, StoreCatalog.label(peer), Table.score(best.get().primaryMetric().score()), s.cell(),
                s.reading(true), oursCrash + " / " + StoreCatalog.crash(peer));
    }
}
