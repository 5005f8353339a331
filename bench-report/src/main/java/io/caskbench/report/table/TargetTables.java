package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.rule.Goal;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The performance targets BitCask is held to, each measured ratio with its 95% bootstrap interval against its
 * goal, at 1M keys, 16-byte keys, 100-byte values and random order. A goal reads met, not met or
 * undetermined ({@link Goal}), with the point estimate in words; nothing is judged against a reference row.
 */
public final class TargetTables {

    private TargetTables() {
    }

    /** Appends the targets' table, each goal with its measured ratio and verdict, to {@code doc}. */
    public static void render(Document doc, StoreRows rows) {
        doc.heading("Performance targets at 1M keys, 16-byte keys, 100-byte values, random order");
        Table table = new Table("target", "measured (95% interval)", "goal", "reading");
        String single = "PeersSingleThread";
        String threads = "ThousandThreads";
        Optional<JmhResult> getMapped = rows.atPoint(single, "get", StoreRows.MAPPED);
        Optional<JmhResult> putMapped = rows.atPoint(single, "put", StoreRows.MAPPED);
        Optional<JmhResult> putChannel = rows.atPoint(single, "put", StoreRows.FILE_CHANNEL);
        ratio(table, "get MAPPED / LMDB", getMapped, rows.atPoint(single, "get", "LMDB"), 3.0);
        ratio(table, "get MAPPED / Chronicle Map", getMapped, rows.atPoint(single, "get", "CHRONICLE_MAP"), 1.5);
        List<JmhResult> puts = rows.atPoint(single, "put");
        List<String> missing = StoreRows.missingPeers(puts);
        if (missing.isEmpty() || puts.stream().noneMatch(r -> StoreCatalog.role(StoreRows.store(r)) == StoreCatalog.Role.PEER)) {
            ratio(table, "put MAPPED / best peer", putMapped, StoreRows.bestPeer(puts), 3.0);
        } else {
            // The best of some peers is not the best peer: no verdict on a subset.
            table.row("put MAPPED / best peer", "not comparable: no row of " + String.join(", ", missing),
                    Goal.atLeast(3.0).text(), "");
        }
        ratio(table, "1000-thread put / 1-thread put, MAPPED", rows.atPoint(threads, "put", StoreRows.MAPPED),
                putMapped, 1.0);
        ratio(table, "1000-thread get / 1-thread get, MAPPED", rows.atPoint(threads, "get", StoreRows.MAPPED),
                getMapped, 1.8);
        ratio(table, "1000-thread put / 1-thread put, FILE_CHANNEL", rows.atPoint(threads, "put", StoreRows.FILE_CHANNEL),
                putChannel, 1.0);
        // Within 1.2x of the floor's time per record means put throughput >= floor throughput / 1.2.
        for (String floor : new String[] {"direct", "heap"}) {
            ratio(table, "1-thread put FILE_CHANNEL / one pwrite per record (" + floor + ")", putChannel,
                    rows.where("WriteFloor", floor, Map.of()), Goal.atLeast(1.0 / 1.2));
        }
        for (String backend : new String[] {"FILE_CHANNEL", "MAPPED"}) {
            Map<String, String> always = Map.of("backend", backend, "sync", "ALWAYS");
            ratio(table, "ALWAYS 1000-thread put / 1-thread put, " + backend, rows.where("GroupCommit", "gang", always),
                    rows.where("GroupCommit", "single", always), Goal.atLeast(20.0));
        }
        double index = getMapped.map(r -> StoreRows.secondary(r, StoreTables.INDEX)).orElse(Double.NaN);
        // A size, not a timing: the same in every fork, so it is read without an interval.
        table.row("key directory bytes/key, MAPPED", Double.isNaN(index) ? "not measured" : Table.score(index),
                "<= 48 (16 + 32)", Double.isNaN(index) ? ""
                        : (index <= 48 ? "met: " : "not met: ") + String.format(Locale.ROOT, "%.1f", index)
                        + " bytes per key, the goal is at most 48 (a size: no interval)");
        Optional<JmhResult> hints = rows.where("OpenBench", "open", Map.of("mode", "hints", "keyCount", "1000000"));
        Optional<JmhResult> scan = rows.where("OpenBench", "open", Map.of("mode", "scan", "keyCount", "1000000"));
        Goal open = Goal.atMost(1000);
        table.row("open 1M keys with hints, ms", hints.map(r -> Spread.withForks(r.primaryMetric())).orElse("not measured"),
                open.text(), hints.map(r -> open.reading(Spread.ofMean(r.primaryMetric()), "ms")).orElse(""));
        ratio(table, "full scan time / open with hints", scan, hints, 3.0);
        doc.table(table);
        doc.line("Rows without a figure are measured by the targets suite (-Dcaskbench.suites=targets).");
    }

    private static void ratio(Table table, String name, Optional<JmhResult> numerator,
            Optional<JmhResult> denominator, double goal) {
        ratio(table, name, numerator, denominator, Goal.atLeast(goal));
    }

    private static void ratio(Table table, String name, Optional<JmhResult> numerator,
            Optional<JmhResult> denominator, Goal goal) {
        Spread s = Spread.of(numerator.orElse(null), denominator.orElse(null));
        if (Double.isNaN(s.value())) {
            table.row(name, "not measured", goal.text(), "");
            return;
        }
        table.row(name, s.cell(), goal.text(), goal.reading(s));
    }
}
