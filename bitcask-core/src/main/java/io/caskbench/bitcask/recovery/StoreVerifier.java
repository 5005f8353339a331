package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.ProgressListener;
import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Depth;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.VerifyReport.SegmentReport;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.segment.SegmentScanner;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Threading: one verify per object, run by its caller, which hands each data file's check to one
 * of up to {@link #MAX_THREADS} threads; what they report is counted under this object's monitor.
 *
 * <p>Checks a store directory without opening the store, by recovery's own rules: the header checks
 * of open, the same {@link SegmentScanner} (told to report what it skips instead of logging it),
 * and {@code HintFormat.validate}. Beyond what open checks, it compares every entry of a usable
 * hint with the record it lists, since open trusts such a hint without reading the data.
 *
 * <p>Files are read through positional reads, never mapped, so a writer that truncates a file
 * meanwhile cannot crash the verifier.
 */
public final class StoreVerifier {

    /** For a scan whose bad bytes are reported elsewhere: a second look, or a hint rebuilt after a verify. */
    static final SegmentScanner.DamageListener SILENT = new SegmentScanner.DamageListener() {
        @Override
        public void skipped(long offset, long length, boolean batch) {
            // reported by the scan that found them first
        }

        @Override
        public void torn(long offset, long length, boolean batch) {
            // reported by the scan that found them first
        }
    };

    /** More threads than this only queue up at the disk. */
    private static final int MAX_THREADS = 4;

    /** Final, safe everywhere. */
    private final Path dir;
    /** Final, safe everywhere. */
    private final Depth depth;
    /** Final; called under this object's monitor once the checks run. */
    private final ProgressListener progress;
    /** One report per data file; the caller's thread, after the checks ended. */
    private final List<SegmentReport> segments = new ArrayList<>();
    /** Positional reads of kept tails, never a mapping; final, safe everywhere. */
    private final SegmentBackend files = new FileChannelBackend();
    /** Everything found; the caller's thread, after the checks ended. */
    private final List<Finding> findings = new ArrayList<>();
    /** Bytes read so far; under this object's monitor. */
    private long bytesRead;

    private StoreVerifier(Path dir, Depth depth, ProgressListener progress) {
        this.dir = dir;
        this.depth = depth;
        this.progress = progress;
    }

    /** True when {@code dir} is a directory that holds a data file, a hint file or a lock file. */
    public static boolean isStore(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        if (Files.exists(dir.resolve(SegmentFiles.LOCK_FILE))) {
            return true;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir,
                "*{" + SegmentFiles.DATA_SUFFIX + "," + SegmentFiles.HINT_SUFFIX + "}")) {
            return s.iterator().hasNext();
        } catch (IOException e) {
            throw new BitCaskException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks the store in {@code dir}.
     *
     * @param liveWriter true when a writer holds the directory; only recorded in the report
     * @throws BitCaskException when {@code dir} holds no store or cannot be listed
     */
    public static VerifyReport verify(Path dir, Depth depth, ProgressListener progress, boolean liveWriter) {
        Path absolute = dir.toAbsolutePath().normalize();
        if (!isStore(absolute)) {
            throw new BitCaskException(absolute + (Files.isDirectory(absolute)
                    ? " is not a BitCask store: it holds no data, hint or LOCK file" : " is not a directory"));
        }
        StoreVerifier v = new StoreVerifier(absolute, depth, progress);
        v.run();
        return new VerifyReport(absolute, depth, RecordFormat.VERSION, liveWriter, List.copyOf(v.segments),
                List.copyOf(v.findings), v.bytesRead);
    }

    private void run() {
        List<Long> ids = SegmentFiles.dataIds(dir);
        progress.phase("verify", plannedBytes(ids));
        Set<Path> hints = new HashSet<>();
        List<SegmentCheck> checks = new ArrayList<>();
        for (int n = 0; n < ids.size(); n++) {
            hints.add(SegmentFiles.hintFile(dir, ids.get(n)));
            checks.add(new SegmentCheck(dir, ids.get(n), n == ids.size() - 1, depth, this::count));
        }
        runAll(checks);
        for (SegmentCheck c : checks) {
            segments.add(c.report());
            findings.addAll(c.findings());
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*" + SegmentFiles.HINT_SUFFIX)) {
            for (Path hint : s) {
                if (!hints.contains(hint) && Files.isRegularFile(hint)) {
                    findings.add(new Finding(hint, Kind.ORPHAN_HINT, -1, -1, "no data file of this name"));
                }
            }
        } catch (IOException e) {
            throw new BitCaskException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        for (KeptTail t : KeptTail.list(dir)) {
            findings.add(keptTail(t));
        }
        for (Path tmp : SegmentFiles.tempFiles(dir)) {
            findings.add(new Finding(tmp, Kind.DEBRIS, -1, -1, "left by an interrupted merge or file write"));
        }
        findings.sort((a, b) -> a.file().getFileName().toString().compareTo(b.file().getFileName().toString()));
    }

    /** The finding about a kept tail: how much was cut, where from, and how many records in it check. */
    private Finding keptTail(KeptTail t) {
        long size = sizeOrZero(t.file()) - RecordFormat.FILE_HEADER_SIZE;
        String from = "the " + Math.max(0, size) + " bytes cut off " + t.data().getFileName() + " at offset " + t.offset();
        try {
            long records = t.recordsThatCheck(files);
            count(size);
            return new Finding(t.file(), Kind.KEPT_TAIL, -1, -1, from + "; " + records
                    + (records == 1 ? " record in them checks on its own" : " records in them check on their own"));
        } catch (BitCaskException e) {
            return new Finding(t.file(), Kind.KEPT_TAIL, -1, -1, from + "; " + e.getMessage());
        }
    }

    /**
     * Runs the checks, on as many threads as there are cores (at most {@link #MAX_THREADS}): each
     * reads one file through its own channel, so a fast disk is read in parallel.
     */
    private static void runAll(List<SegmentCheck> checks) {
        int threads = Math.min(checks.size(), Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors()));
        if (threads <= 1) {
            checks.forEach(SegmentCheck::run);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "bitcask-verify");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            checks.forEach(c -> running.add(pool.submit(c::run)));
            for (Future<?> f : running) {
                f.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new BitCaskException("verify failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BitCaskException("verify was interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Bytes this run will read: hint files always, data files only when records are read. */
    private long plannedBytes(List<Long> ids) {
        long total = 0;
        for (long id : ids) {
            total += sizeOrZero(SegmentFiles.hintFile(dir, id));
            total += depth == Depth.RECORDS ? sizeOrZero(SegmentFiles.dataFile(dir, id)) : RecordFormat.FILE_HEADER_SIZE;
        }
        return total;
    }

    private static long sizeOrZero(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Reads happen on several threads; the listener hears of them one at a time. */
    private synchronized void count(long bytes) {
        bytesRead += bytes;
        progress.advance(bytes);
    }
}
