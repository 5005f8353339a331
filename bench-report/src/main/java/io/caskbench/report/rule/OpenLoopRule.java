package io.caskbench.report.rule;

import io.caskbench.report.text.Table;
import java.util.Collection;
import java.util.Locale;

/**
 * What an open-loop row (bench-jmh's open-loop driver: operations at a fixed arrival rate, each timed from
 * when it was due) may say, the same in every table that shows one:
 *
 * <ul>
 *   <li>the floor: each fork runs a harness pass just before its measured pass, at the same rate and threads
 *       with a 1 us operation ({@code harness:p99} and so on). A percentile within {@link #FLOOR_FACTOR} of the
 *       harness's same percentile is the driver's, not the system's: it reads {@link #AT_FLOOR}, judges no goal
 *       and is no ratio's term. A run from before the harness pass says {@link #NO_FLOOR};</li>
 *   <li>keeping up: a row whose achieved rate is more than a rounding below the rate asked in some fork
 *       ({@link #KEPT_UP}), or that left operations unstarted, measured a growing queue: it shows the rate it
 *       achieved, and no ratio and no verdict;</li>
 *   <li>censored operations: those due that were never started before the grace ran out are in the
 *       percentiles at the run's end minus their due time, and their count is shown.</li>
 * </ul>
 */
public final class OpenLoopRule {

    /** A percentile at most this multiple of the harness's same percentile is at the harness floor. */
    public static final double FLOOR_FACTOR = 2;
    /**
     * A row achieving less than this share of the rate asked did not keep up: 1% is more than rounding (one
     * operation in a hundred for the count's whole operations and the last one completing past the period).
     */
    public static final double KEPT_UP = 0.99;
    /** The label of a harness pass's row. */
    public static final String HARNESS = "harness only";
    /** What a percentile at the floor reads. */
    public static final String AT_FLOOR = "at the harness floor";
    /** What a table of a run without harness passes says in place of one. */
    public static final String NO_FLOOR = "harness floor: not in this run";
    /** The rules in a few sentences, for the line under every open-loop table. */
    public static final String LEGEND = "\"" + HARNESS + "\": the harness pass each fork ran just before its "
            + "measured pass, at the same rate and threads with a 1 us operation: the driver's own floor. A "
            + "percentile within " + String.format(Locale.ROOT, "%.0fx", FLOOR_FACTOR) + " of the harness's same percentile reads \""
            + AT_FLOOR + "\": it judges no goal and is no ratio's term. A row whose achieved rate fell more than "
            + String.format(Locale.ROOT, "%.0f%%", 100 * (1 - KEPT_UP)) + " below the rate asked in some fork, "
            + "or that left operations unstarted, did not keep up: its percentiles are a growing queue's, and it "
            + "shows its achieved rate and no ratio and no verdict. Operations never started are censored: "
            + "counted at the run's end minus their due time, so they raise the tail.";

    private OpenLoopRule() {
    }

    /** Whether {@code value} is within {@link #FLOOR_FACTOR} of the harness's {@code floor}; never when either is unknown. */
    public static boolean atFloor(double value, double floor) {
        return !Double.isNaN(value) && !Double.isNaN(floor) && value <= FLOOR_FACTOR * floor;
    }

    /**
     * Whether a row kept up with {@code offered}: every fork achieved {@link #KEPT_UP} of it and left no
     * operation unstarted.
     */
    public static boolean keptUp(double offered, Collection<Double> achieved, Collection<Double> unfinished) {
        return achieved.stream().allMatch(a -> a >= KEPT_UP * offered) && unfinished.stream().allMatch(u -> u <= 0);
    }

    /**
     * {@code did not keep up: 24.3 of 50.0 ops/s}, then the operations never started as
     * {@link #censoredNote} gives them.
     */
    public static String notKeptUp(double achieved, double offered, double censored, boolean inTail) {
        return "did not keep up: " + Table.score(achieved) + " of " + Table.score(offered) + " ops/s"
                + censoredNote(censored, inTail);
    }

    /**
     * {@code , 5 censored}, or nothing when no operation was left unstarted; {@code , 5 never started (not in
     * the percentiles)} from a run whose driver left them out ({@code inTail} false: before censoring).
     */
    public static String censoredNote(double censored, boolean inTail) {
        if (censored <= 0) {
            return "";
        }
        return String.format(Locale.ROOT, inTail ? ", %,.0f censored" : ", %,.0f never started (not in the percentiles)",
                censored);
    }
}
