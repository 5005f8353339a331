package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.caskbench.bitcask.BitCask;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/** {@code bitcask dump DIR}: every live key and value as JSON Lines on stdout. */
@Command(name = "dump", description = {
        "Write every live key and value to stdout as JSON Lines, {\"key\":…,\"value\":…}, streamed in no"
                + " particular order. Bytes that are not valid UTF-8 are written in base64, and a"
                + " keyEncoding or valueEncoding field says so. TTLs are not written. 'bitcask load' reads it.",
        "Opens the store read-only."})
final class DumpCommand extends StoreCommand {

    @Override
    public Integer call() throws IOException {
        JsonLines lines = new JsonLines();
        OutputStream out = binaryOut();
        try (BitCask db = Stores.openReadOnly(dir);
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
        return BitCaskCli.OK;
    }
}
