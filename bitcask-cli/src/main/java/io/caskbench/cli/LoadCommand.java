package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.WriteBatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedInputStream;
import java.io.IOException;

/** {@code bitcask load DIR}: puts the JSON Lines of stdin into a store, in batches. */
@Command(name = "load", description = {
        "Read JSON Lines in the format of 'bitcask dump' from stdin and put them into the store, in atomic"
                + " batches. On a bad line it stops, after writing every line before it, and says which line.",
        "Opens the store for writing, so it refuses a directory a live writer holds."})
final class LoadCommand extends StoreCommand {

    /** A batch is written once it holds this many bytes of keys and values, whatever --batch says. */
    private static final long BATCH_BYTES = 4L << 20;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1000",
            description = "Records per atomic batch (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--create", description = "Make a new store when DIR is missing or empty.")
    boolean create;

    @Override
    public Integer call() throws IOException {
        if (batchSize < 1) {
            throw new UsageException("--batch must be at least 1: " + batchSize);
        }
        long loaded = 0;
        try (BitCask db = Stores.openWritable(dir, create);
             Progress progress = progress("records");
             JsonParser p = new JsonFactory().createParser(new BufferedInputStream(System.in, 1 << 16))) {
            progress.phase("load", -1);
            WriteBatch batch = new WriteBatch();
            long bytes = 0;
            while (true) {
                JsonLines.Entry e;
                long line = p.currentLocation().getLineNr();
                try {
                    if (p.nextToken() == null) {
                        break;
                    }
                    line = p.currentTokenLocation().getLineNr();
                    e = JsonLines.read(p);
                    check(e, db);
                } catch (JsonProcessingException | IllegalArgumentException bad) {
                    String what = bad instanceof JsonProcessingException j ? j.getOriginalMessage() : bad.getMessage();
                    db.write(batch); // every line before the bad one is loaded, as the message says
                    loaded += batch.size();
                    spec.commandLine().getErr().printf("bitcask: stdin line %d: %s; %s before it %s loaded%n",
                            line, what, loaded == 1 ? "the 1 record" : "the " + Reports.count(loaded) + " records",
                            loaded == 1 ? "was" : "were");
                    return BitCaskCli.FAILED;
                }
                long size = e.key().length + (long) e.value().length;
                if (!batch.isEmpty() && (batch.size() >= batchSize || bytes + size > BATCH_BYTES)) {
                    db.write(batch);
                    loaded += batch.size();
                    progress.advance(batch.size());
                    batch.clear();
                    bytes = 0;
                }
                batch.put(e.key(), e.value());
                bytes += size;
            }
            db.write(batch);
            loaded += batch.size();
            progress.advance(batch.size());
        }
        out().println("loaded " + Reports.count(loaded, "record", "records") + " into " + dir.toAbsolutePath().normalize());
        return BitCaskCli.OK;
    }

    /** Refuses a record the store would refuse, so that the error names its line. */
    private static void check(JsonLines.Entry e, BitCask db) {
        if (e.key().length == 0 || e.key().length > db.options().maxKeySize()) {
            throw new IllegalArgumentException("a key must have 1 to " + db.options().maxKeySize() + " bytes, not " + e.key().length);
        }
        if (e.value().length > db.options().maxValueSize()) {
            throw new IllegalArgumentException("a value of " + e.value().length + " bytes is over the limit of "
                    + db.options().maxValueSize());
        }
    }
}
