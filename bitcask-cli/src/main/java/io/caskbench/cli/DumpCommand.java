package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskCorruptionException;
import io.caskbench.bitcask.Salvage;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/** {@code bitcask dump DIR}: every live key and value as JSON Lines on stdout. */
@Command(name = "dump", description = {
        "Write every live key and value to stdout as JSON Lines, {\"key\":…,\"value\":…}, streamed in no"
                + " particular order. Bytes that are not valid UTF-8 are written in base64, and a"
                + " keyEncoding or valueEncoding field says so. TTLs are not written. 'bitcask load' reads it.",
        "Opens the store read-only. It stops at a damaged record with exit code 1; --skip-corrupt dumps every record"
                + " that checks."})
final class DumpCommand extends StoreCommand {

    @Option(names = "--skip-corrupt", description = "Salvage a damaged store: verify it first, then dump every record"
            + " that checks on its own, skipping damaged bytes with a warning for each damaged range on stderr. The"
            + " members of a batch that open leaves out whole (one of them damaged, or torn) and the records of kept"
            + " tails (*.tail-* files) are dumped too, each line with a \"salvaged\" field that says where from."
            + " Exit code 1 when anything was skipped or a kept tail was read.")
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
     * Dumps every record that checks on its own, through {@link BitCask#salvage}, after a warning for
     * each damaged range and each kept tail that a verify names; the store's own warnings are silenced.
     * A line whose value came from a batch that open leaves out whole, or from a kept tail, carries a
     * {@code salvaged} field that says which, and a summary on stderr counts them.
     */
    private int salvage() throws IOException {
        BitCaskCli.quietStore();
        Stores.existing(dir);
        VerifyReport report;
        try (Progress progress = progress("MiB")) {
            report = BitCask.verify(dir, VerifyReport.Depth.RECORDS, progress);
        }
        // Damage in the data; a hint that disagrees with it loses nothing, as the salvage reads no hint.
        // Beside a writer, a failing tail that stands still is a lost record, not an append: read it again.
        List<Finding> damaged = WritesInProgress.recheck(report, WritesInProgress.RECHECK_WAIT).others().stream()
                .filter(f -> f.kind().dataAtRisk() && f.kind() != Kind.HINT_MISMATCH).toList();
        for (Finding f : damaged) {
            err().println("bitcask: warning: skipping " + Reports.name(report.directory(), f.file()) + " " + f.kind()
                    + Reports.where(f) + ": " + f.detail());
        }
        List<Finding> tails = report.findings(Kind.KEPT_TAIL);
        for (Finding f : tails) {
            err().println("bitcask: reading " + Reports.name(report.directory(), f.file()) + " " + f.kind() + ": " + f.detail());
        }
        Map<String, Long> salvaged = new TreeMap<>();
        long dumped;
        try (Salvage s = BitCask.salvage(dir)) {
            dumped = dump(s.size(), s::forEach, salvaged);
        }
        if (!salvaged.isEmpty()) {
            long n = salvaged.values().stream().mapToLong(Long::longValue).sum();
            StringBuilder from = new StringBuilder();
            salvaged.forEach((origin, count) -> from.append(from.isEmpty() ? "" : "; ").append(Reports.count(count)).append(" from ")
                    .append(origin));
            err().println("bitcask: " + Reports.count(n, "record", "records") + " of the dump came from batches that open leaves"
                    + " out whole, or from kept tails; each line has a \"salvaged\" field that says where from: " + from);
        }
        if (damaged.isEmpty() && tails.isEmpty()) {
            return BitCaskCli.OK;
        }
        err().println("bitcask: dumped " + Reports.count(dumped, "record", "records") + " and skipped "
                + Reports.count(damaged.size(), "damaged range", "damaged ranges") + " of " + report.directory()
                + "; a key whose newest record lay there is missing from the dump, or at an older value,"
                + " and a key deleted there may reappear");
        return BitCaskCli.FAILED;
    }

    /** Writes the pairs of the store in {@code storeDir}; returns how many. */
    private long dump(Path storeDir) throws IOException {
        try (BitCask db = Stores.openReadOnly(storeDir)) {
            return dump(db.size(), visitor -> db.forEach((k, v) -> visitor.record(k, v, null)), null);
        }
    }

    /**
     * Writes the {@code size} pairs {@code source} visits, counting in {@code salvaged} the lines each
     * origin gave; returns how many. A reader that went away ends it quietly.
     */
    private long dump(long size, Consumer<Salvage.Visitor> source, Map<String, Long> salvaged) throws IOException {
        JsonLines lines = new JsonLines();
        OutputStream out = binaryOut();
        long[] written = {0};
        try (Progress progress = progress("keys");
             JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.setRootValueSeparator(null); // each object ends its own line
            progress.phase("dump", size);
            source.accept((k, v, origin) -> {
                try {
                    lines.write(g, k, v, origin == null ? null : origin.toString());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (origin != null) {
                    salvaged.merge(origin.toString(), 1L, Long::sum);
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
