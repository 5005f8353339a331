package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.report.table.StoreTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Heap and disk bytes per key of a filled store, measured once per trial outside measured time and
 * handed to {@link FootprintProfiler}, which reports them as JMH secondary metrics of the benchmark.
 *
 * <p>Both are measured once the store's background work is done ({@link FilledStore}): disk is the space
 * the store's directory occupies on the file system (allocated blocks, so sparse pre-sized files count
 * only what was written) while the store is closed, so every hint file, flush and compaction is in it.
 * Heap is the growth of the live heap (after full GCs) from just before the store was first opened to
 * after it was reopened and every key read once: the on-heap structures of an open store serving gets,
 * caches included. Off-heap memory and the page cache are not counted, so stores that keep everything
 * in native memory or mappings (RocksDB, LMDB, Chronicle Map, MapDB) show little heap.
 */
public final class Footprint {

    /** Heap growth per key, in bytes. */
    public static final String HEAP = StoreTables.HEAP;
    /** Allocated disk space per key, in bytes. */
    public static final String DISK = StoreTables.DISK;
    /** Key-directory size per key as the store itself reports it (BitCask only). */
    public static final String INDEX = StoreTables.INDEX;

    private static volatile Footprint current;

    private final double heapBytesPerKey;
    private final double diskBytesPerKey;
    private final double indexBytesPerKey;

    private Footprint(double heapBytesPerKey, double diskBytesPerKey, double indexBytesPerKey) {
        this.heapBytesPerKey = heapBytesPerKey;
        this.diskBytesPerKey = diskBytesPerKey;
        this.indexBytesPerKey = indexBytesPerKey;
    }

    /** Live heap bytes now, after full collections. Call before opening the store. */
    public static long liveHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Records a filled store's figures and makes them available to the profiler.
     *
     * @param heapBefore {@link #liveHeap()} before the store was first opened
     * @param store the store, open and with every key in it
     * @param diskBytes the allocated bytes of its directory with its background work done
     * @param keys the keys it holds
     */
    public static Footprint publish(long heapBefore, StoreAdapter store, long diskBytes, long keys) {
        long heap = Math.max(0, liveHeap() - heapBefore);
        long index = store.indexBytes();
        Footprint footprint = new Footprint((double) heap / keys, (double) diskBytes / keys,
                index < 0 ? -1 : (double) index / keys);
        current = footprint;
        return footprint;
    }

    /**
     * The figures of the running trial, or {@code null} when none were published. They are not cleared
     * at trial end: JMH runs the trial teardown before the profiler reads the last iteration, and a fork
     * runs only one benchmark.
     */
    static Footprint current() {
        return current;
    }

    /** Heap growth per key. */
    public double heapBytesPerKey() {
        return heapBytesPerKey;
    }

    /** Allocated disk bytes per key. */
    public double diskBytesPerKey() {
        return diskBytesPerKey;
    }

    /** Index bytes per key as reported by the store, or -1 when it reports none. */
    public double indexBytesPerKey() {
        return indexBytesPerKey;
    }

    /** Allocated bytes under {@code dir} ({@code du}); the sum of file lengths where {@code du} fails. */
    static long diskBytes(Path dir) {
        try {
            Process du = new ProcessBuilder("du", "-s", "-B1", dir.toString()).redirectErrorStream(true).start();
            String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (du.waitFor(30, TimeUnit.SECONDS) && du.exitValue() == 0) {
                return Long.parseLong(out.split("\\s+")[0]);
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the logical size
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
