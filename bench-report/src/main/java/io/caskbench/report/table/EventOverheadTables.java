package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The events suite's comparison ({@code events-comparison.txt} and the generated block of
 * docs/observability.md): what the store's JFR events cost. For each operation and backend of
 * {@code EventOverhead}, the row with no recording ({@code recording=NONE}) and the rows under the JDK's
 * default recording ({@code JDK}) and with {@code bitcask.jfc} over it ({@code BITCASK}), each as the ratio
 * off / on of their throughputs with its 95% bootstrap interval over forks, and a reading: the recording
 * costs something only when the whole interval lies above 1.
 */
public final class EventOverheadTables {

    private static final String OFF = "NONE";

    /** What each recording is, for the table. */
    private static final Map<String, String> RECORDINGS = Map.of(
            OFF, "none (JFR never started)",
            "JDK", "JDK default",
            "BITCASK", "JDK default + bitcask.jfc");

    private EventOverheadTables() {
    }

    /** The comparison of one run. */
    public static Document render(List<JmhResult> rows) {
        Map<String, Map<String, JmhResult>> groups = new LinkedHashMap<>();
        for (JmhResult r : rows) {
            if (StoreRows.cls(r).equals("EventOverhead") && r.params().containsKey("recording")) {
                groups.computeIfAbsent(r.methodName() + " " + r.params().getOrDefault("backend", "?"),
                        g -> new LinkedHashMap<>()).put(r.params().get("recording"), r);
            }
        }
        Document doc = new Document();
        doc.line("One thread gets or overwrites random keys of a filled store; each recording runs in forks of its own.")
                .line("off / on = throughput with no recording / throughput under this recording, with its 95% interval"
                        + " from a bootstrap over forks: 1.05 means the recording costs 5%. It costs something only when"
                        + " the whole interval is above 1; with fewer than " + Spread.PUBLISHED_FORKS
                        + " forks a reading is indicative.");
        Table table = new Table("operation", "backend", "recording", "ops/s (fork means)", "off / on (95% interval)",
                "reading");
        groups.forEach((group, byRecording) -> {
            JmhResult off = byRecording.get(OFF);
            for (String recording : List.of(OFF, "JDK", "BITCASK")) {
                JmhResult r = byRecording.get(recording);
                if (r == null) {
                    continue;
                }
                String[] names = group.split(" ", 2);
                Spread s = r == off || off == null ? null : Spread.of(off, r);
                table.row(names[0], names[1], RECORDINGS.get(recording), Spread.withForks(r.primaryMetric()),
                        s == null ? "" : s.cell(), s == null ? "" : reading(s));
            }
        });
        doc.table(table);
        return doc;
    }

    /** Whether the recording costs something, by the interval of off / on. */
    static String reading(Spread offOverOn) {
        String words = switch (offOverOn.verdict(true)) {
            case WIN -> "costs something";
            case LOSS -> "faster with the recording";
            case UNDETERMINED -> offOverOn.hasSpread() ? "no cost measured" : "no interval";
        };
        return words + offOverOn.indicativeNote();
    }
}
