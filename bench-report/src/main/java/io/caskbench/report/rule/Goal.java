package io.caskbench.report.rule;

import java.util.Locale;

/**
 * A goal a measured ratio is held to, at least or at most a target, and its reading of a ratio's interval.
 *
 * <p>A goal is met when the whole 95% interval ({@link Spread}) clears the target, not met when none of it
 * does, and undetermined otherwise or without an interval. The reading names the point estimate in words,
 * and below {@link Spread#PUBLISHED_FORKS} forks it is marked indicative.
 *
 * @param target the ratio the goal states
 * @param atLeast true for "at least the target", false for "at most"
 */
public record Goal(double target, boolean atLeast) {

    /** What a goal says of one interval. */
    public enum Verdict {
        /** The whole interval clears the target. */
        MET,
        /** None of the interval clears the target. */
        NOT_MET,
        /** The interval straddles the target, or there is none. */
        UNDETERMINED;

        /** Lower-case words: {@code met}, {@code not met}, {@code undetermined}. */
        public String words() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    /** A goal of at least {@code target}. */
    public static Goal atLeast(double target) {
        return new Goal(target, true);
    }

    /** A goal of at most {@code target}. */
    public static Goal atMost(double target) {
        return new Goal(target, false);
    }

    /** {@code >= 3.0} or {@code <= 1.5}. */
    public String text() {
        return (atLeast ? ">= " : "<= ") + two(target);
    }

    /** Met, not met or undetermined for a ratio's interval. */
    public Verdict judge(Spread s) {
        if (!s.hasSpread()) {
            return Verdict.UNDETERMINED;
        }
        boolean allClear = atLeast ? s.low() >= target : s.high() <= target;
        boolean noneClear = atLeast ? s.high() < target : s.low() > target;
        return allClear ? Verdict.MET : noneClear ? Verdict.NOT_MET : Verdict.UNDETERMINED;
    }

    /**
     * The verdict with the point estimate in words, e.g. {@code not met: 4.81 times, the goal is at most
     * 1.50 times (indicative, 3 forks)}; blank when there is no ratio.
     */
    public String reading(Spread s) {
        return reading(s, "times");
    }

    /** As {@link #reading(Spread)} for a figure in {@code unit} ("ms", say) rather than a ratio. */
    public String reading(Spread s, String unit) {
        if (Double.isNaN(s.value())) {
            return "";
        }
        String why = s.hasSpread() ? "" : ", one fork: no interval";
        return judge(s).words() + ": " + two(s.value()) + " " + unit + ", the goal is "
                + (atLeast ? "at least " : "at most ") + two(target) + " " + unit + why + s.indicativeNote();
    }

    /** Two decimals for ratios, none from 100 up (milliseconds, say). */
    private static String two(double v) {
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : "%.2f", v);
    }
}
