package io.caskbench.cli;

import io.caskbench.bitcask.BitCask;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.OutputStream;

/** {@code bitcask get DIR KEY}: the value, read-only. */
@Command(name = "get", description = {
        "Print the value of KEY: its bytes as they are, or in hex or base64 and a line break.",
        "Opens the store read-only. Exit code 1 when the key is absent."})
final class GetCommand extends KeyCommand {

    @Override
    public Integer call() throws IOException {
        KeyEncoding enc = encoding();
        byte[] k = keyBytes();
        byte[] value;
        try (BitCask db = Stores.openReadOnly(dir)) {
            value = db.get(k);
        }
        if (value == null) {
            return notFound();
        }
        OutputStream out = binaryOut();
        out.write(enc == KeyEncoding.UTF8 ? value : enc.line(value));
        out.flush();
        return BitCaskCli.OK;
    }
}
