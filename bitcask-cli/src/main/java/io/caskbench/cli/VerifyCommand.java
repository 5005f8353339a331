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
        "Changes nothing. Exit code 0 when the directory is as a clean close leaves it, 1 when anything was found;"
                + " with --live, 0 also when all that was found is a running writer's work in progress."})
final class VerifyCommand extends StoreCommand {

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Option(names = "--live", description = "A writer is expected to hold the store (a health check beside it):"
            + " findings on the newest segment, its hint and *.tmp files that the writer's work in progress explains"
            + " are listed as such and leave the exit code at 0. A failing tail of the newest segment is read again"
            + " after 200 ms, and counts as damage when it has not changed.")
    boolean live;

    @Override
    public Integer call() throws IOException {
        Stores.existing(dir);
        long started = System.nanoTime();
        VerifyReport report;
        try (Progress progress = progress("MiB")) {
            report = BitCask.verify(dir, VerifyReport.Depth.RECORDS, progress);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (report.liveWriter() && !live) {
            spec.commandLine().getErr().println("bitcask: warning: a writer holds " + report.directory()
                    + "; findings on its newest segment, that segment's hint and *.tmp files may be writes in progress"
                    + " ('bitcask verify --live' leaves those out of the exit code)");
        } else if (live && !report.liveWriter()) {
            spec.commandLine().getErr().println("bitcask: warning: --live, but no writer holds " + report.directory()
                    + ": every finding counts");
        }
        // A failing tail that stands still beside the writer is damage, not an append: read it again.
        WritesInProgress inProgress = live ? WritesInProgress.recheck(report, WritesInProgress.RECHECK_WAIT) : null;
        if (json) {
            try (JsonGenerator g = Reports.json(out())) {
                Reports.verifyJson(report, inProgress, g);
            }
            out().println();
        } else {
            Reports.verifyText(report, millis, inProgress, out());
        }
        return Reports.healthy(report, inProgress) ? BitCaskCli.OK : BitCaskCli.FAILED;
    }
}
