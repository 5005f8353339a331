package io.caskbench.report.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shortens SVG path data as VectorGraphics2D writes it (absolute {@code M}, {@code L}, {@code Q},
 * {@code C} and {@code Z}) to relative commands on a grid of a tenth of a pixel: {@code Q-5.328125,-2.578125
 * -4.703125,-2.109375} becomes {@code q0,.8 .6,1.3}. Points are rounded before the differences are
 * taken, so rounding errors do not add up along a contour. Data with any other command, or with a
 * value that is not a finite number, comes back unchanged.
 */
final class PathData {

    /** A command letter or a number; NaN and Infinity before the letters, so that they read as numbers. */
    private static final Pattern TOKEN = Pattern.compile("NaN|-?Infinity|[A-Za-z]|-?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");

    private PathData() {
    }

    /** The shortened form of {@code d}, drawing the same shape to within 0.05 px. */
    static String compact(String d) {
        List<String> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(d);
        while (m.find()) {
            tokens.add(m.group());
        }
        StringBuilder out = new StringBuilder(d.length() / 3);
        long x = 0;
        long y = 0;
        long startX = 0;
        long startY = 0;
        int i = 0;
        while (i < tokens.size()) {
            String cmd = tokens.get(i++);
            int points = switch (cmd) {
                case "M", "L" -> 1;
                case "Q" -> 2;
                case "C" -> 3;
                case "Z" -> 0;
                default -> -1;
            };
            if (points < 0 || i + 2 * points > tokens.size()) {
                return d;
            }
            if (cmd.equals("Z")) {
                out.append('z');
                x = startX;
                y = startY;
                continue;
            }
            // The first move stays absolute; everything after it is relative to the point before.
            boolean absolute = out.length() == 0;
            out.append(absolute ? cmd : cmd.toLowerCase(Locale.ROOT));
            long endX = x;
            long endY = y;
            for (int p = 0; p < points; p++) {
                long px;
                long py;
                try {
                    px = tenths(tokens.get(i++));
                    py = tenths(tokens.get(i++));
                } catch (NumberFormatException e) {
                    return d;
                }
                number(out, absolute ? px : px - x, p > 0);
                number(out, absolute ? py : py - y, true);
                endX = px;
                endY = py;
            }
            x = endX;
            y = endY;
            if (cmd.equals("M")) {
                startX = x;
                startY = y;
            }
        }
        return out.toString();
    }

    /** A coordinate in whole tenths of a pixel. */
    private static long tenths(String number) {
        double v = Double.parseDouble(number);
        if (!Double.isFinite(v)) {
            throw new NumberFormatException(number);
        }
        return Math.round(v * 10);
    }

    /** Appends {@code t} tenths as "-1.3", ".6" or "12", with a separator unless a minus sign is one. */
    private static void number(StringBuilder out, long t, boolean separate) {
        if (t < 0) {
            out.append('-');
        } else if (separate) {
            out.append(',');
        }
        long a = Math.abs(t);
        if (a / 10 != 0 || a % 10 == 0) {
            out.append(a / 10);
        }
        if (a % 10 != 0) {
            out.append('.').append(a % 10);
        }
    }
}
