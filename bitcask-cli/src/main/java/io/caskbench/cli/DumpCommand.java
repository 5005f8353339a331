package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskCorruptionException;
import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** {@code bitcask dump DIR}: every live key and value as JSON Lines on stdout. */
@Command(name = "dump", description = {
        "Write every live key and value to stdout as JSON Lines, {\"key\":…,\"value\":…}, streamed in no"
                + " particular order. Bytes that are not valid UTF-8 are written in base64, and a"
                + " keyEncoding or valueEncoding field says so. TTLs are not written. 'bitcask load' reads it.",
        "Opens the store read-only. It stops at a damaged record with exit code 1; --skip-corrupt dumps the rest."})
final class DumpCommand extends StoreCommand {

    @Option(names = "--skip-corrupt", description = "Salvage a damaged store: verify it first, then dump every record"
            + " that open can read, skipping damaged bytes with a warning for each damaged range on stderr."
            + " Exit code 1 when anything was skipped.")
    boolean skipCorrupt;

    @Override
    public Integer call() throws IOException {
        if (skipCorrupt) {
            return salvage();
        }
        try {
            dump(dir);
        } catch (BitCaskCorruptionException e) {
            err().println("bitcask: " + e.getMessage() + "; the dump stops at this record. 'bitcask dump --skip-corrupt "
                    + dir + "' skips damaged records and dumps the rest");
            return BitCaskCli.FAILED;
        }
        return BitCaskCli.OK;
    }

    /**
     * Dumps what open can read once the hints that disagree with their data are left out, after a
     * warning for each damaged range; the verify's report names them, so the store's own warnings,
     * which would name the links, are silenced.
     */
    private int salvage() throws IOException {
        BitCaskCli.quietStore();
        Stores.existing(dir);
        VerifyReport report;
        try (Progress progress = progress("MiB")) {
            report = BitCask.verify(dir, VerifyReport.Depth.RECORDS, progress);
        }
        // Damage in the data; a hint that disagrees with it loses nothing once the view leaves it out.
        // Beside a writer, a failing tail that stands still is a lost record, not an append: read it again.
        List<Finding> damaged = WritesInProgress.recheck(report, WritesInProgress.RECHECK_WAIT).others().stream()
                .filter(f -> f.kind().dataAtRisk() && f.kind() != Kind.HINT_MISMATCH).toList();
        for (Finding f : damaged) {
            err().println("bitcask: warning: skipping " + Reports.name(report.directory(), f.file()) + " " + f.kind()
                    + Reports.where(f) + ": " + f.detail());
        }
        long dumped;
        try (SalvageView view = SalvageView.of(report)) {
            dumped = dump(view.directory());
        }
        if (damaged.isEmpty()) {
            return BitCaskCli.OK;
        }
        err().println("bitcask: dumped " + Reports.count(dumped, "record", "records") + " and skipped "
                + Reports.count(damaged.size(), "damaged range", "damaged ranges") + " of " + report.directory()
                + "; a key whose newest record lay there is missing from the dump, or at an older value,"
                + " and a key deleted there may reappear");
        return BitCaskCli.FAILED;
    }

    /** Writes the pairs of the store in {@code storeDir}; returns how many. A reader that went away ends it quietly. */
    private long dump(Path storeDir) throws IOException {
        JsonLines lines = new JsonLines();
        OutputStream out = binaryOut();
        long[] written = {0};
        try (BitCask db = Stores.openReadOnly(storeDir);
             Progress progress = progress("keys");
             JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.setRootValueSeparator(null); // each object ends its own line
            progress.phase("dump", db.size());
            db.forEach((k, v) -> {
                try {
                    lines.write(g, k, v);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                written[0]++;
                progress.advance(1);
            });
        } catch (UncheckedIOException e) {
            if (!readerGone(e.getCause())) {
                throw e.getCause();
            }
        } catch (IOException e) {
            if (!readerGone(e)) {
                throw e;
            }
        }
        return written[0];
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
