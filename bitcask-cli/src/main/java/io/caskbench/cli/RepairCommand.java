package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.RepairReport;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/** {@code bitcask repair DIR}: applies recovery's rules explicitly, a dry run unless --apply. */
@Command(name = "repair", description = {
        "Apply recovery's own rules once and for good: cut the newest segment's torn tail, rewrite missing,"
                + " damaged, stale or wrong hint files, restore a damaged header copy, delete *.tmp files and hints"
                + " without data. Never rewrites a record.",
        "A dry run unless --apply; --apply first copies every file it changes into DIR/repair-<time>/.",
        "Refuses a directory that a live writer holds. Exit code 0 when nothing is (or, after --apply, remains)"
                + " to be found, 1 otherwise."})
final class RepairCommand extends StoreCommand {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    @ArgGroup(exclusive = true)
    Mode mode;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    /** --dry-run or --apply. */
    static final class Mode {
        @Option(names = "--dry-run", description = "Only say what a repair would change (the default).")
        boolean dryRun;

        @Option(names = "--apply", description = "Make the changes, after backing up every file they touch.")
        boolean apply;
    }

    @Override
    public Integer call() throws IOException {
        Stores.existing(dir);
        boolean apply = mode != null && mode.apply;
        RepairReport report;
        try (Progress progress = progress("MiB")) {
            report = BitCask.repair(dir, apply, apply ? backupDirectory() : null, progress);
        }
        if (json) {
            try (JsonGenerator g = Reports.json(out())) {
                Reports.repairJson(report, g);
            }
            out().println();
        } else {
            Reports.repairText(report, out());
        }
        boolean nothingLeft = report.applied() ? report.complete() : report.actions().isEmpty() && report.unrepaired().isEmpty();
        return nothingLeft ? BitCaskCli.OK : BitCaskCli.FAILED;
    }

    /** DIR/repair-&lt;UTC time&gt;, with a counter when that exists already. */
    private Path backupDirectory() {
        String stamp = STAMP.format(ZonedDateTime.now(ZoneOffset.UTC));
        Path candidate = dir.resolve("repair-" + stamp);
        for (int n = 2; Files.exists(candidate); n++) {
            candidate = dir.resolve("repair-" + stamp + "-" + n);
        }
        return candidate;
    }
}
