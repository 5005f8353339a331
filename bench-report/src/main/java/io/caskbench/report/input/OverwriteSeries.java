package io.caskbench.report.input;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * One fork's time series of the overwrite suite, as bench-jmh writes it into the run folder:
 * {@code overwrite-<store>-<valueSize>-<skew>-<rate|full>-<pid>.csv}, a header and a line per interval; a
 * committed run holds it gzip-compressed ({@code .csv.gz}, see {@link RunArchive}).
 *
 * @param store the store setting, upper case ({@code BITCASK_DEFAULT})
 * @param valueSize bytes per value
 * @param skew {@code UNIFORM} or {@code ZIPFIAN}
 * @param rate the offered rate, or 0 for full speed
 * @param points the intervals, in time order
 */
public record OverwriteSeries(String store, int valueSize, String skew, int rate, List<Point> points) {

    private static final Pattern NAME = Pattern.compile("overwrite-([a-z_]+)-(\\d+)-([a-z]+)-(\\d+|full)-\\d+\\.csv(\\.gz)?");

    /**
     * One interval.
     *
     * @param second seconds from the run's start to the interval's end
     * @param opsPerSecond operations per second
     * @param putP99 put p99, microseconds
     * @param spaceAmp disk over live bytes
     * @param writeAmp device over application bytes, so far
     */
    public record Point(double second, double opsPerSecond, double putP99, double spaceAmp, double writeAmp) {
    }

    /** What the series ran, for a legend: {@code 1 KiB, zipfian, 20,000 ops/s}. */
    public String label() {
        return (valueSize >= 1024 && valueSize % 1024 == 0 ? valueSize / 1024 + " KiB" : valueSize + " B") + ", "
                + skew.toLowerCase(Locale.ROOT) + ", " + (rate > 0 ? Units.format(rate) + " ops/s" : "full speed");
    }

    /** Every time series in {@code results}, by store, value size, skew and rate; one per row (the first fork's). */
    public static List<OverwriteSeries> list(Path results) {
        if (!Files.isDirectory(results)) {
            return List.of();
        }
        List<OverwriteSeries> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(results)) {
            for (Path f : files.sorted().toList()) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (m.matches()) {
                    OverwriteSeries s = read(f, m);
                    if (out.stream().noneMatch(o -> o.sameRow(s))) {
                        out.add(s);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.sort(Comparator.comparing(OverwriteSeries::store).thenComparing(OverwriteSeries::valueSize)
                .thenComparing(OverwriteSeries::skew).thenComparing(s -> s.rate() == 0 ? Integer.MAX_VALUE : s.rate()));
        return out;
    }

    private boolean sameRow(OverwriteSeries o) {
        return store.equals(o.store) && valueSize == o.valueSize && skew.equals(o.skew) && rate == o.rate;
    }

    /** Reads one file whose name matched. */
    private static OverwriteSeries read(Path file, Matcher name) {
        List<String> lines;
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + " has no header");
        }
        List<String> header = Arrays.asList(lines.get(0).split(","));
        int second = column(header, "second", file);
        int ops = column(header, "opsPerSecond", file);
        int p99 = column(header, "putP99Us", file);
        int space = column(header, "spaceAmp", file);
        int write = column(header, "writeAmp", file);
        List<Point> points = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] c = line.split(",");
            if (c.length != header.size()) {
                throw new IllegalArgumentException(file + ": a line of " + c.length + " columns, the header has "
                        + header.size() + ": " + line);
            }
            points.add(new Point(Double.parseDouble(c[second]), Double.parseDouble(c[ops]), Double.parseDouble(c[p99]),
                    Double.parseDouble(c[space]), Double.parseDouble(c[write])));
        }
        String rate = name.group(4);
        return new OverwriteSeries(name.group(1).toUpperCase(Locale.ROOT), Integer.parseInt(name.group(2)),
                name.group(3).toUpperCase(Locale.ROOT), rate.equals("full") ? 0 : Integer.parseInt(rate), points);
    }

    private static int column(List<String> header, String name, Path file) {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(file + " has no column " + name);
        }
        return i;
    }
}
