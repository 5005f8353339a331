package io.caskbench.cli;

import io.caskbench.bitcask.BackupReport;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.VerifyReport.Finding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;

/** {@code bitcask backup DIR TARGET}: the store's own backup (or checkpoint), offline. */
@Command(name = "backup", description = {
        "Write a consistent, openable copy of the store into TARGET, which must be missing or empty.",
        "Every file is copied and forced, and each copy is read back and checked: every record's CRC against its"
                + " file and offset, every hint file's own checks. Bytes that fail their check are listed, and the"
                + " exit code is 1: the copy holds them as the store does, and its open skips them as the store's does."
                + " A hint file that fails its checks is left out and listed; the exit code stays 0.",
        "With --checkpoint the older segments and their hints are hard-linked instead (copied where the file system"
                + " refuses a link) and nothing is checked: nearly free, but the two directories then share those files,"
                + " so a damaged byte or a failed disk takes both.",
        "The copy is then opened and closed once, which writes the hint of its newest segment.",
        "Opens the store for writing, so it refuses a directory a live writer holds."})
final class BackupCommand extends StoreCommand {

    @Parameters(index = "1", paramLabel = "TARGET", description = "Where the copy goes.")
    Path target;

    @Option(names = "--checkpoint", description = "Hard-link the older segments and their hints instead of copying"
            + " and checking them: a checkpoint, which shares their files with the store.")
    boolean checkpoint;

    @Override
    public Integer call() {
        BackupReport report = null;
        try (BitCask db = Stores.openWritable(dir, false); Progress progress = progress("")) {
            progress.phase(checkpoint ? "checkpoint" : "backup", -1);
            if (checkpoint) {
                db.checkpoint(target);
            } else {
                report = db.backup(target);
            }
        }
        // The copy of the newest segment has no hint yet; a close writes it, so the copy verifies clean.
        BitCask.open(target).close();
        Path from = dir.toAbsolutePath().normalize();
        Path to = target.toAbsolutePath().normalize();
        if (report == null) {
            out().println("checkpoint of " + from + " in " + to + ": older segments and their hints hard-linked where the"
                    + " file system allows it; nothing checked");
            return BitCaskCli.OK;
        }
        out().println("backed up " + from + " to " + to + ": " + Reports.count(report.files(), "file", "files") + ", "
                + Reports.size(report.bytes()) + " copied, " + Reports.count(report.records(), "record", "records") + " checked");
        printFindings(report, from, out());
        return report.dataAtRisk() ? BitCaskCli.FAILED : BitCaskCli.OK;
    }

    private static void printFindings(BackupReport report, Path from, PrintWriter out) {
        for (Finding f : report.findings()) {
            out.printf("%s  %s%s: %s%n", f.file().getFileName(), f.kind(), Reports.where(f), f.detail());
            out.printf("    %s%n", f.kind().meaning());
        }
        if (report.dataAtRisk()) {
            out.println("the store holds bytes that fail their check; the backup holds them as they are. 'bitcask verify "
                    + from + "' shows all the damage; " + Reports.advice(report.findings().stream()
                    .filter(f -> f.kind().dataAtRisk()).findFirst().orElseThrow().kind()));
        } else if (!report.clean()) {
            out.println("hint files that fail their checks were left out; the backup's open scans their data files");
        }
    }
}
