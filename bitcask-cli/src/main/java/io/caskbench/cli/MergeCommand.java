package io.caskbench.cli;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import picocli.CommandLine.Command;

import java.util.Locale;

/** {@code bitcask merge DIR}: the store's own merge, offline. */
@Command(name = "merge", description = {
        "Rewrite the live records of every segment into new, compact segments and delete the old ones;"
                + " tombstones, overwritten and expired records and corrupt bytes are dropped.",
        "Opens the store for writing, so it refuses a directory a live writer holds."})
final class MergeCommand extends StoreCommand {

    @Override
    public Integer call() {
        MergeResult r;
        try (BitCask db = Stores.openWritable(dir, false); Progress progress = progress("")) {
            progress.phase("merge", -1);
            r = db.merge(MergeScope.ALL);
        }
        if (r.removedSegments().isEmpty()) {
            out().println("nothing to merge: no dead bytes");
        } else {
            out().printf(Locale.ROOT, "merged %s into %d: %s -> %s (%s reclaimed), %s copied in %.1f s%n",
                    Reports.count(r.removedSegments().size(), "segment", "segments"), r.addedSegments().size(),
                    Reports.size(r.bytesBefore()), Reports.size(r.bytesAfter()), Reports.size(r.bytesReclaimed()),
                    Reports.count(r.recordsCopied(), "record", "records"),
                    r.millis() / 1000.0);
        }
        return BitCaskCli.OK;
    }
}
