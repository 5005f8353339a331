package io.caskbench.cli;

import picocli.CommandLine.ITypeConverter;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Reads a duration written as {@code 90s}, {@code 30m}, {@code 12h}, {@code 7d} or in ISO-8601. */
final class Durations implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                case 'd' -> Duration.ofDays(n);
                default -> throw new NumberFormatException("no unit");
            };
        } catch (DateTimeParseException | NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (write 90s, 30m, 12h, 7d or PT1H30M)");
        }
    }
}
