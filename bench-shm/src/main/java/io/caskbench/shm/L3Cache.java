package io.caskbench.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The size of the L3 cache of the machine this runs on, read at run time from Linux's sysfs, so that the
 * "large" region is large on every machine: a region only a few times the L3 is partly served from it.
 */
public final class L3Cache {

    /** How many times the L3 the large region of the quick profile is at least. */
    public static final int FACTOR = 8;

    private static final Path CACHES = Path.of("/sys/devices/system/cpu/cpu0/cache");

    private L3Cache() {
    }

    /** The L3 size in bytes (the largest level-3 cache of CPU 0), or empty when sysfs does not say. */
    public static OptionalLong bytes() {
        return bytes(CACHES);
    }

    /** {@link #bytes()} read from another sysfs cache folder, for tests. */
    static OptionalLong bytes(Path caches) {
        if (!Files.isDirectory(caches)) {
            return OptionalLong.empty();
        }
        try (Stream<Path> indexes = Files.list(caches)) {
            return indexes.filter(p -> p.getFileName().toString().startsWith("index"))
                    .filter(p -> "3".equals(read(p.resolve("level"))))
                    .mapToLong(p -> parseSize(read(p.resolve("size")))).filter(b -> b > 0).max();
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException e) {
            return "";
        }
    }

    /** sysfs writes sizes as {@code 32768K}; a bare number is bytes; anything else is 0. */
    static long parseSize(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = t.endsWith("K") ? 1L << 10 : t.endsWith("M") ? 1L << 20 : t.endsWith("G") ? 1L << 30 : 1;
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        try {
            return Long.parseLong(digits) * unit;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * The smallest power-of-two region of at least {@link #FACTOR} times an L3 of {@code l3} bytes, as a
     * region size; capped at 1 GiB (a ByteBuffer's limit here). With the L3 unknown, 1 GiB.
     */
    public static String largeRegion(OptionalLong l3) {
        long want = l3.isPresent() ? FACTOR * l3.getAsLong() : 1L << 30;
        long region = Long.highestOneBit(Math.max(1, want - 1)) << 1;
        return RegionSize.format(Math.min(region, 1L << 30));
    }
}
