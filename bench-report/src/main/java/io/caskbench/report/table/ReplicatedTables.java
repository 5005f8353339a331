package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The replicated suite's comparison, from the run's JSON ({@code replicated-comparison.txt} and the
 * generated block of docs/replication.md): put and get of one Raft group of three replicas
 * ({@code REPLICATED}) and of three groups on the same replicas ({@code SHARDED}), each as a ratio of the
 * single-node store ({@code SINGLE}) of the same run, at the same client count. Throughput rows come from
 * {@code ReplicatedThroughput} (clients = JMH threads), latency rows from {@code ReplicatedOpenLoop}'s
 * profiler metrics ({@code get:p50}, {@code put:p99}, {@code offered}, {@code achieved}).
 */
public final class ReplicatedTables {

    /** The sentence every rendering carries: what these figures can and cannot say. */
    public static final String CAVEAT = "Three replicas on one 2-core machine measure the protocol's cost, "
            + "not a cluster's speed: the replicas share the cores, the disk and the loopback with the clients.";

    /** The baseline deployment. */
    static final String SINGLE = "SINGLE";
    /** The replicated deployments, in column order. */
    static final List<String> REPLICATED = List.of("REPLICATED", "SHARDED");
    /** A row whose achieved rate is below this share of the offered one did not keep up. */
    static final double KEPT_UP = 0.98;

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
        List<JmhResult> open = rows.stream().filter(r -> r.className().endsWith("." + OPEN_LOOP)).toList();
        List<String> saturated = new ArrayList<>();
        for (String op : List.of("put", "get")) {
            for (String clients : open.stream().map(r -> r.params().get("clients")).distinct()
                    .sorted(Comparator.comparingInt(Integer::parseInt)).toList()) {
                Optional<JmhResult> single = openLoop(open, clients, SINGLE);
                List<String> cells = new ArrayList<>(List.of(op, clients,
                        single.map(r -> r.params().get("rate")).orElse("-"),
                        micros(single, op + ":p50"), micros(single, op + ":p99")));
                for (String deployment : REPLICATED) {
                    Optional<JmhResult> row = openLoop(open, clients, deployment);
                    cells.add(micros(row, op + ":p50"));
                    cells.add(micros(row, op + ":p99"));
                    cells.add(ratio(metric(row, op + ":p99"), metric(single, op + ":p99")));
                }
                table.row(cells);
            }
        }
        for (JmhResult r : open) {
            double offered = metric(Optional.of(r), "offered");
            double achieved = metric(Optional.of(r), "achieved");
            if (achieved < KEPT_UP * offered) {
                saturated.add(String.format(Locale.ROOT, "%s at %s clients (%s of %s ops/s)", r.params().get("deployment"),
                        r.params().get("clients"), Table.score(achieved), Table.score(offered)));
            }
        }
        if (table.isEmpty()) {
            doc.line("No open-loop rows in this run.");
        }
        doc.table(table);
        if (!saturated.isEmpty()) {
            doc.warning("Did not keep up with the offered rate, so its percentiles are a queue's: "
                    + String.join("; ", saturated) + ".");
        }
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

    private static Optional<JmhResult> openLoop(List<JmhResult> open, String clients, String deployment) {
        return open.stream().filter(r -> clients.equals(r.params().get("clients"))
                && deployment.equals(r.params().get("deployment"))).findFirst();
    }

    private static double metric(Optional<JmhResult> row, String name) {
        return row.map(r -> r.secondaryMetrics().get(name)).map(Metric::score).orElse(Double.NaN);
    }

    private static String micros(Optional<JmhResult> row, String name) {
        double v = metric(row, name);
        return Double.isNaN(v) ? "-" : Table.score(v);
    }
}
