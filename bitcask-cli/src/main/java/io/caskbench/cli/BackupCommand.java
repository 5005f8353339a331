package io.caskbench.cli;

import io.caskbench.bitcask.BitCask;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code bitcask backup DIR TARGET}: the store's own backup, offline. */
@Command(name = "backup", description = {
        "Write a consistent, openable copy of the store into TARGET, which must be missing or empty."
                + " Segments are hard-linked where the file system allows it, else copied; the copy is then"
                + " opened and closed once, which writes the hint of its newest segment.",
        "Opens the store for writing, so it refuses a directory a live writer holds."})
final class BackupCommand extends StoreCommand {

    @Parameters(index = "1", paramLabel = "TARGET", description = "Where the copy goes.")
    Path target;

    @Override
    public Integer call() {
        try (BitCask db = Stores.openWritable(dir, false); Progress progress = progress("")) {
            progress.phase("backup", -1);
            db.backup(target);
        }
        // The copy of the newest segment has no hint yet; a close writes it, so the copy verifies clean.
        BitCask.open(target).close();
        out().println("backed up " + dir.toAbsolutePath().normalize() + " to " + target.toAbsolutePath().normalize());
        return BitCaskCli.OK;
    }
}
