package io.caskbench.bench;

import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The one progress line of a whole invocation, with one estimate of the time left in all of it, such as
 * {@code [caskbench] 14 of 40 rows done; run 3 of 9 (store: PeersSingleThread.get store=LMDB), fork 2 of 3
 * — about 6 min left in the whole run}.
 *
 * <p>Every row ({@link Trial}) has a nominal time: its forks times its iterations' configured length plus
 * an allowance per fork ({@link RunEstimate}). The time left is the nominal time not yet done, scaled by
 * how much longer than nominal the work done so far really took. JMH reports each fork and each finished
 * iteration as it happens ({@link ProgressFormat}), so the estimate moves while a row runs, not only
 * between rows. The line shows it as an end of the run that moves earlier only by as much as it moved
 * later before ({@link #shownSecondsLeft}).
 *
 * <p>Used by the runner's main thread only (JMH calls its output format on the thread that runs it).
 */
final class Progress {

    private final List<Trial> trials;
    private final int runs;
    private final double nominalTotal;
    private final LongSupplier nanos;
    /** Start of the whole run; set by {@link #start}. */
    private long startNanos;
    /** Nominal seconds of every finished or skipped row. */
    private double nominalDoneBefore;
    /** Nominal seconds done in the current row: forks started and iterations finished. */
    private double nominalDoneInTrial;
    /** Index of the current row; -1 before the first. */
    private int current = -1;
    private int forksStarted;
    private int forksTotal;
    /** The end of the run the line last showed, in {@code nanos} time; -1 before the first line. */
    private long shownEnd = -1;
    /** How far the shown end has moved later, less what it has since moved back: all it may still move back. */
    private long raised;

    /** A progress over {@code trials}, timed by {@code nanos} ({@code System::nanoTime}). */
    Progress(List<Trial> trials, LongSupplier nanos) {
        this.trials = List.copyOf(trials);
        this.runs = (int) trials.stream().map(t -> t.suite() + "/" + t.run()).distinct().count();
        this.nominalTotal = trials.stream().mapToDouble(Trial::nominalSeconds).sum();
        this.nanos = nanos;
    }

    /** Starts the clock of the whole run. */
    void start() {
        startNanos = nanos.getAsLong();
    }

    /** Row {@code index} (of the list given) starts; the rows before it are done or skipped. */
    void trialStarted(int index) {
        nominalDoneBefore = 0;
        for (Trial t : trials.subList(0, index)) {
            nominalDoneBefore += t.nominalSeconds();
        }
        current = index;
        nominalDoneInTrial = 0;
        forksStarted = 0;
        forksTotal = 0;
    }

    /** A fork of the current row starts, the {@code n}th of {@code total}. */
    void forkStarted(int n, int total) {
        forksStarted = n;
        forksTotal = total;
        add(RunEstimate.FORK_SECONDS);
    }

    /** An iteration of the current row ended; its nominal length was {@code seconds}. */
    void iterationDone(double seconds) {
        add(seconds);
    }

    private void add(double seconds) {
        // JMH may do more than the estimate foresaw (a failed fork, say); never count past the row.
        double cap = current < 0 ? 0 : trials.get(current).nominalSeconds();
        nominalDoneInTrial = Math.min(cap, nominalDoneInTrial + seconds);
    }

    /** Nominal seconds done so far. */
    double nominalDone() {
        return nominalDoneBefore + nominalDoneInTrial;
    }

    /** How many times its nominal time the work so far has taken; 1 until some work is done. */
    double scale() {
        double done = nominalDone();
        double elapsed = (nanos.getAsLong() - startNanos) / 1e9;
        // Below a few nominal seconds the ratio is mostly JVM start-up: keep to nominal until then.
        return done >= RunEstimate.FORK_SECONDS && elapsed > 0 ? elapsed / done : 1;
    }

    /** Estimated seconds left in the whole run. */
    double secondsLeft() {
        return Math.max(0, nominalTotal - nominalDone()) * scale();
    }

    /**
     * The time left that the line shows: the estimate's end of the run, moved later whenever the estimate
     * rises, but moved earlier only by as much as it was moved later before. A person plans by the first
     * figure; an estimate that halves and then triples within a minute (a fill that the nominal times do
     * not foresee, then a fast row) is worse than one that is a little high.
     */
    double shownSecondsLeft() {
        long now = nanos.getAsLong();
        long end = now + Math.round(secondsLeft() * 1e9);
        if (shownEnd < 0) {
            shownEnd = end;
        } else if (end > shownEnd) {
            raised += end - shownEnd;
            shownEnd = end;
        } else {
            long back = Math.min(shownEnd - end, raised);
            raised -= back;
            shownEnd -= back;
        }
        return Math.max(0, (shownEnd - now) / 1e9);
    }

    /** The progress line at this moment. */
    String line() {
        if (current < 0) {
            return String.format(Locale.ROOT, "[caskbench] %d rows in %d runs \u2014 %s in the whole run",
                    trials.size(), runs, about(shownSecondsLeft()));
        }
        Trial t = trials.get(current);
        int run = (int) trials.subList(0, current + 1).stream().map(x -> x.suite() + "/" + x.run()).distinct().count();
        String fork = forksTotal > 0 ? String.format(Locale.ROOT, ", fork %d of %d", forksStarted, forksTotal) : "";
        return String.format(Locale.ROOT, "[caskbench] %d of %d rows done; run %d of %d (%s: %s)%s \u2014 %s left in the"
                + " whole run", current, trials.size(), run, runs, t.suite(), t.label(), fork, about(shownSecondsLeft()));
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
