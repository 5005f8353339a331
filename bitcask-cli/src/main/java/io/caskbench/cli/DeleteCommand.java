package io.caskbench.cli;

import io.caskbench.bitcask.BitCask;
import picocli.CommandLine.Command;

/** {@code bitcask delete DIR KEY}. */
@Command(name = "delete", description = {
        "Delete KEY. Opens the store for writing, so it refuses a directory a live writer holds.",
        "Exit code 1 when the key was absent."})
final class DeleteCommand extends KeyCommand {

    @Override
    public Integer call() {
        byte[] k = keyBytes();
        boolean removed;
        try (BitCask db = Stores.openWritable(dir, false)) {
            removed = db.delete(k);
        }
        if (!removed) {
            return notFound();
        }
        return BitCaskCli.OK;
    }
}
