package io.caskbench.cli;

import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.HintState;
import io.caskbench.bitcask.VerifyReport.SegmentReport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A store directory as open reads it once every hint that disagrees with its data is gone: a
 * temporary directory of symbolic links to the store's data files and to the hint files that a
 * verify found usable. Open trusts a hint without reading the records it lists, so through a hint
 * that lists a damaged record the store would hand that record to a reader, who gets an error; with
 * the hint left out, open scans the data file, skips the damaged bytes and keeps the records after
 * them, as it does for a segment without a hint. The store's own files are never written, and
 * {@link #close()} deletes the links and their directory.
 */
final class SalvageView implements AutoCloseable {

    /** The directory of links; deleted by close. */
    private final Path dir;

    private SalvageView(Path dir) {
        this.dir = dir;
    }

    /** A view of the store {@code report} verified: every data file, and the hints it found usable. */
    static SalvageView of(VerifyReport report) {
        Path dir;
        try {
            dir = Files.createTempDirectory("bitcask-salvage-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory: " + e.getMessage(), e);
        }
        SalvageView view = new SalvageView(dir);
        try {
            for (SegmentReport s : report.segments()) {
                view.link(s.file());
                if (s.hint() == HintState.USABLE) {
                    view.link(Reports.hintOf(s.file()));
                }
            }
        } catch (IOException e) {
            view.close();
            throw new UncheckedIOException("cannot link the store's files into " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            view.close();
            throw e;
        }
        return view;
    }

    /** The directory to open the store in, read-only. */
    Path directory() {
        return dir;
    }

    private void link(Path file) throws IOException {
        Files.createSymbolicLink(dir.resolve(file.getFileName()), file.toAbsolutePath());
    }

    /** Deletes the links and their directory, never what they point at. */
    @Override
    public void close() {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            List<Path> all = walk.sorted(Comparator.reverseOrder()).toList();
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": " + e.getMessage(), e);
        }
    }
}
