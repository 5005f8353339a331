package io.caskbench.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The line printed before each JMH run of a suite, such as
 * {@code [run 3/6] store: ThousandThreads.get — about 2 min, about 5 min left in the suite}.
 *
 * <p>A suite is several JMH runs in a row, and JMH's own ETA covers only the run at hand and none of
 * the set-up its iteration counts do not show. Each run's time is its {@link RunEstimate nominal time}
 * scaled by how much longer than nominal the runs so far really took; before the first run the nominal
 * time is all there is. The scale carries over from one suite to the next of the same invocation.
 */
final class Progress {

    private double nominalDone;
    private double actualDone;

    /** How many times its nominal time a run has taken so far; 1 before any run finished. */
    double scale() {
        return nominalDone > 0 && actualDone > 0 ? actualDone / nominalDone : 1;
    }

    /** Records that a run with this estimate took {@code took}. */
    void finished(RunEstimate run, Duration took) {
        if (run.nominalSeconds() > 0) {
            nominalDone += run.nominalSeconds();
            actualDone += took.toNanos() / 1e9;
        }
    }

    /** Expected seconds for {@code run}. */
    double expectedSeconds(RunEstimate run) {
        return run.nominalSeconds() * scale();
    }

    /**
     * The line for run {@code index} (0-based) of a suite's runs, with the time left in the suite from
     * that run on (that run included).
     */
    String line(String suite, List<RunEstimate> runs, int index) {
        RunEstimate run = runs.get(index);
        String head = String.format(Locale.ROOT, "[run %d/%d] %s: ", index + 1, runs.size(), suite);
        if (run.trials() == 0) {
            return head + "no benchmark matches the include filter; skipped";
        }
        double left = 0;
        for (RunEstimate r : runs.subList(index, runs.size())) {
            left += expectedSeconds(r);
        }
        return head + run.label() + " \u2014 " + about(expectedSeconds(run)) + ", " + about(left)
                + " left in the suite";
    }

    /** "about 40 s", "about 3 min", "about 2 h 10 min": as precise as an estimate deserves. */
    static String about(double seconds) {
        long s = Math.round(seconds);
        if (s < 90) {
            return "about " + Math.max(5, (s + 4) / 5 * 5) + " s";
        }
        long minutes = Math.round(seconds / 60);
        if (minutes < 90) {
            return "about " + minutes + " min";
        }
        long tenMinutes = Math.round(seconds / 600) * 10;
        return tenMinutes % 60 == 0 ? "about " + tenMinutes / 60 + " h"
                : "about " + tenMinutes / 60 + " h " + tenMinutes % 60 + " min";
    }
}
