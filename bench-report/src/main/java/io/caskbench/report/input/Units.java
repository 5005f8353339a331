package io.caskbench.report.input;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * JMH's score units ({@code ops/s}, {@code us/op}, ...): which direction is better, and conversion
 * between units of the same kind so that rows measured in different units can share a chart or be
 * set against a seed figure.
 */
public final class Units {

    private static final Map<String, Double> SECONDS = Map.ofEntries(
            Map.entry("ns", 1e-9), Map.entry("us", 1e-6), Map.entry("µs", 1e-6), Map.entry("ms", 1e-3),
            Map.entry("s", 1.0), Map.entry("sec", 1.0), Map.entry("min", 60.0), Map.entry("hr", 3600.0),
            Map.entry("h", 3600.0), Map.entry("day", 86400.0));

    private Units() {
    }

    /** Whether the unit is a rate per time ({@code ops/s}, {@code msgs/ms}): higher is better. */
    public static boolean isRate(String unit) {
        String[] parts = split(unit);
        return parts != null && SECONDS.containsKey(parts[1]) && !SECONDS.containsKey(parts[0]);
    }

    /** Whether the unit is a time per item ({@code us/op}): lower is better. */
    public static boolean isTimePer(String unit) {
        String[] parts = split(unit);
        return parts != null && SECONDS.containsKey(parts[0]) && !SECONDS.containsKey(parts[1]);
    }

    /**
     * Converts a value between two units of the same kind and the same counted item, for example
     * {@code ops/ms} to {@code ops/s} or {@code ns/op} to {@code ms/op}. Empty when they do not convert.
     */
    public static OptionalDouble convert(double value, String from, String to) {
        if (from.equals(to)) {
            return OptionalDouble.of(value);
        }
        String[] f = split(from);
        String[] t = split(to);
        if (f == null || t == null) {
            return OptionalDouble.empty();
        }
        if (isRate(from) && isRate(to) && f[0].equals(t[0])) {
            return OptionalDouble.of(value * SECONDS.get(t[1]) / SECONDS.get(f[1]));
        }
        if (isTimePer(from) && isTimePer(to) && f[1].equals(t[1])) {
            return OptionalDouble.of(value * SECONDS.get(f[0]) / SECONDS.get(t[0]));
        }
        return OptionalDouble.empty();
    }

    /**
     * The seconds one counted item takes, from a rate ({@code 2e6 ops/s} -> 5e-7) or a time per item
     * ({@code 500 ns/op} -> 5e-7); empty for other units or a non-positive value.
     */
    public static OptionalDouble secondsPerItem(double value, String unit) {
        String[] u = split(unit);
        if (u == null || !(value > 0)) {
            return OptionalDouble.empty();
        }
        if (isRate(unit)) {
            return OptionalDouble.of(SECONDS.get(u[1]) / value);
        }
        if (isTimePer(unit)) {
            return OptionalDouble.of(value * SECONDS.get(u[0]));
        }
        return OptionalDouble.empty();
    }

    /** The inverse of {@link #secondsPerItem}: expresses seconds per item in a rate or time-per unit. */
    public static OptionalDouble fromSecondsPerItem(double seconds, String unit) {
        OptionalDouble one = secondsPerItem(1, unit);
        if (one.isEmpty() || !(seconds > 0)) {
            return OptionalDouble.empty();
        }
        // rate: seconds = one / value; time per item: seconds = value * one
        return OptionalDouble.of(isRate(unit) ? one.getAsDouble() / seconds : seconds / one.getAsDouble());
    }

    /** Formats a score with three significant digits and no exponent for everyday magnitudes. */
    public static String format(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+inf" : "-inf";
        }
        if (value == 0) {
            return "0";
        }
        double abs = Math.abs(value);
        if (abs >= 1e9 || abs < 1e-3) {
            return String.format(Locale.ROOT, "%.3g", value);
        }
        if (abs >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (abs >= 100) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (abs >= 10) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** The numerator and denominator of {@code a/b}, trimmed and lower-cased; null when not of that form. */
    private static String[] split(String unit) {
        if (unit == null) {
            return null;
        }
        String[] parts = unit.trim().toLowerCase(Locale.ROOT).split("/");
        if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
            return null;
        }
        return new String[] {parts[0].trim(), parts[1].trim()};
    }
}
