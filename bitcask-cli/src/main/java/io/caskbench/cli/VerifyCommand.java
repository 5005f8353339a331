package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.VerifyReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;

/** {@code bitcask verify DIR}: reads every file of the store and reports what is damaged. */
@Command(name = "verify", description = {
        "Read every record of every data file and every hint entry, and check header copies and versions,"
                + " CRCs, batches, hints against their data, torn tails and left-over temporary files.",
        "Changes nothing. Exit code 0 when the directory is as a clean close leaves it, 1 when anything was found."})
final class VerifyCommand extends StoreCommand {

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        Stores.existing(dir);
        long started = System.nanoTime();
        VerifyReport report;
        try (Progress progress = progress("MiB")) {
            report = BitCask.verify(dir, VerifyReport.Depth.RECORDS, progress);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (report.liveWriter()) {
            spec.commandLine().getErr().println("bitcask: warning: a writer holds " + report.directory()
                    + "; findings on its newest segment, that segment's hint and *.tmp files may be writes in progress");
        }
        if (json) {
            try (JsonGenerator g = Reports.json(out())) {
                Reports.verifyJson(report, g);
            }
            out().println();
        } else {
            Reports.verifyText(report, millis, out());
        }
        return report.clean() ? BitCaskCli.OK : BitCaskCli.FAILED;
    }
}
