package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.rule.OpenLoopRule;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The replicated suite's comparison, from the run's JSON ({@code replicated-comparison.txt} and the
 * generated block of docs/replication.md): put and get of one Raft group of three replicas
 * ({@code REPLICATED}) and of three groups on the same replicas ({@code SHARDED}), each as a ratio of the
 * single-node store ({@code SINGLE}) of the same run, at the same client count. Throughput rows come from
 * {@code ReplicatedThroughput} (clients = JMH threads), latency rows from {@code ReplicatedOpenLoop}'s
 * profiler metrics ({@code get:p50}, {@code put:p99}, {@code offered}, {@code achieved}, {@code unfinished},
 * and the harness pass's {@code harness:p50}, {@code harness:p99}), under {@link OpenLoopRule}: a ratio only
 * between rows that kept up and percentiles above their harness floor, and a harness row per client count.
 */
public final class ReplicatedTables {

    /** The sentence every rendering carries: what these figures can and cannot say. */
    public static final String CAVEAT = "Three replicas on one 2-core machine measure the protocol's cost, "
            + "not a cluster's speed: the replicas share the cores, the disk and the loopback with the clients.";

    /** The baseline deployment. */
    static final String SINGLE = "SINGLE";
    /** The replicated deployments, in column order. */
    static final List<String> REPLICATED = List.of("REPLICATED", "SHARDED");

    private static final String THROUGHPUT = "ReplicatedThroughput";
    private static final String OPEN_LOOP = "ReplicatedOpenLoop";

    private ReplicatedTables() {
    }

    /** The comparison of one run. */
    public static Document render(List<JmhResult> rows) {
        Document doc = new Document();
        doc.line(CAVEAT);
        doc.line("REPLICATED: one Raft group of three replicas; SHARDED: three groups on the same three replicas;"
                + " both on 127.0.0.1 in the benchmark's JVM, reads linearizable (read index), writes acknowledged"
                + " once a majority forced them to its Raft log. SINGLE: the single-node store at SyncPolicy.NONE,"
                + " the policy of every replica's local store. x single = the row's figure / SINGLE's at the same"
                + " client count.");
        throughput(doc, rows);
        latency(doc, rows);
        return doc;
    }

    private static void throughput(Document doc, List<JmhResult> rows) {
        doc.heading("Throughput (ops/s, closed loop, each client calling back to back)");
        Table table = new Table("operation", "clients", "SINGLE", "REPLICATED", "x single", "SHARDED", "x single");
        for (String op : List.of("put", "get")) {
            for (int clients : rows.stream().filter(r -> isThroughput(r, op)).mapToInt(JmhResult::threads)
                    .distinct().sorted().toArray()) {
                double single = score(rows, op, clients, SINGLE);
                List<String> cells = new ArrayList<>(List.of(op, String.valueOf(clients), Table.score(single)));
                for (String deployment : REPLICATED) {
                    double replicated = score(rows, op, clients, deployment);
                    cells.add(Table.score(replicated));
                    cells.add(ratio(replicated, single));
                }
                table.row(cells);
            }
        }
        if (table.isEmpty()) {
            doc.line("No throughput rows in this run.");
        }
        doc.table(table);
    }

    private static void latency(Document doc, List<JmhResult> rows) {
        doc.heading("Latency (microseconds, open loop at a fixed rate, half puts, half gets)");
        Table table = new Table("operation", "clients", "rate", "SINGLE p50", "SINGLE p99", "REPLICATED p50",
                "REPLICATED p99", "p99 x single", "SHARDED p50", "SHARDED p99", "p99 x single");
        List<OpenLoopRow> open = rows.stream().filter(r -> r.className().endsWith("." + OPEN_LOOP))
                .map(OpenLoopRow::new).toList();
        List<String> clientCounts = open.stream().map(r -> r.result().params().get("clients")).distinct()
                .sorted(Comparator.comparingInt(Integer::parseInt)).toList();
        for (String op : List.of("put", "get")) {
            for (String clients : clientCounts) {
                Optional<OpenLoopRow> single = openLoop(open, clients, SINGLE);
                List<String> cells = new ArrayList<>(List.of(op, clients, rate(single),
                        micros(single, op, "p50"), micros(single, op, "p99")));
                for (String deployment : REPLICATED) {
                    Optional<OpenLoopRow> row = openLoop(open, clients, deployment);
                    cells.add(micros(row, op, "p50"));
                    cells.add(micros(row, op, "p99"));
                    cells.add(ratio(row, single, op));
                }
                table.row(cells);
            }
        }
        if (OpenLoopRow.anyHarness(open)) {
            for (String clients : clientCounts) {
                Optional<OpenLoopRow> single = openLoop(open, clients, SINGLE);
                List<String> cells = new ArrayList<>(List.of(OpenLoopRule.HARNESS, clients, rate(single),
                        harness(single, "p50"), harness(single, "p99")));
                for (String deployment : REPLICATED) {
                    Optional<OpenLoopRow> row = openLoop(open, clients, deployment);
                    cells.addAll(List.of(harness(row, "p50"), harness(row, "p99"), ""));
                }
                table.row(cells);
            }
        } else if (!open.isEmpty()) {
            table.row(OpenLoopRule.HARNESS, "", "", OpenLoopRule.NO_FLOOR);
        }
        if (table.isEmpty()) {
            doc.line("No open-loop rows in this run.");
        }
        doc.table(table);
        if (!open.isEmpty()) {
            doc.line("Each percentile is the mean of the forks' own. p99 x single = the row's p99 / SINGLE's at the "
                    + "same client count, given only when both rows kept up and neither p99 is at its harness floor.");
            doc.line(OpenLoopRule.LEGEND);
        }
    }

    /** The rate a row was asked, or {@code -}. */
    private static String rate(Optional<OpenLoopRow> row) {
        return row.map(r -> r.result().params().get("rate")).orElse("-");
    }

    /** The mean of the forks' percentile {@code p} of kind {@code op}, marked when at the harness floor; {@code -} when absent. */
    private static String micros(Optional<OpenLoopRow> row, String op, String p) {
        double v = row.map(r -> r.forkMean(op, p)).orElse(Double.NaN);
        if (Double.isNaN(v)) {
            return "-";
        }
        return Table.score(v) + (row.get().forkMeanAtFloor(op, p) ? ", " + OpenLoopRule.AT_FLOOR : "");
    }

    /** The harness passes' percentile {@code p} of a row, the mean of its forks'; {@code not in this run} without them. */
    private static String harness(Optional<OpenLoopRow> row, String p) {
        if (row.isEmpty()) {
            return "-";
        }
        double v = row.get().forkMean(OpenLoopRow.HARNESS, p);
        return Double.isNaN(v) ? "not in this run" : Table.score(v);
    }

    /**
     * The p99 of {@code row} over {@code single}'s, of kind {@code op}; instead, when either did not keep up,
     * what it achieved, and when either p99 is at its harness floor, that.
     */
    private static String ratio(Optional<OpenLoopRow> row, Optional<OpenLoopRow> single, String op) {
        if (row.isEmpty() || single.isEmpty()) {
            return "";
        }
        if (!row.get().keptUp()) {
            return row.get().notKeptUp();
        }
        if (!single.get().keptUp()) {
            return "SINGLE " + single.get().notKeptUp();
        }
        if (row.get().forkMeanAtFloor(op, "p99") || single.get().forkMeanAtFloor(op, "p99")) {
            return "n/a: " + (single.get().forkMeanAtFloor(op, "p99") ? "SINGLE " : "") + OpenLoopRule.AT_FLOOR;
        }
        return ratio(row.get().forkMean(op, "p99"), single.get().forkMean(op, "p99"));
    }

    /** {@code numerator / denominator} to three significant digits (a replicated put may be 0.00450 of a local one). */
    static String ratio(double numerator, double denominator) {
        if (Double.isNaN(numerator) || Double.isNaN(denominator) || denominator <= 0) {
            return "";
        }
        return Table.score(numerator / denominator);
    }

    private static boolean isThroughput(JmhResult r, String op) {
        return r.className().endsWith("." + THROUGHPUT) && r.methodName().equals(op);
    }

    private static double score(List<JmhResult> rows, String op, int clients, String deployment) {
        return rows.stream().filter(r -> isThroughput(r, op) && r.threads() == clients
                        && deployment.equals(r.params().get("deployment")))
                .mapToDouble(r -> r.primaryMetric().score()).findFirst().orElse(Double.NaN);
    }

    private static Optional<OpenLoopRow> openLoop(List<OpenLoopRow> open, String clients, String deployment) {
        return open.stream().filter(r -> clients.equals(r.result().params().get("clients"))
                && deployment.equals(r.result().params().get("deployment"))).findFirst();
    }
}
