package io.caskbench.cli;

import io.caskbench.bitcask.BitCask;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/** {@code bitcask keys DIR}: the live keys, sorted, one a line. */
@Command(name = "keys", description = {
        "Print the live keys in byte order, one a line: their bytes as they are, or in hex or base64.",
        "Opens the store read-only."})
final class KeysCommand extends StoreCommand {

    @Option(names = "--prefix", paramLabel = "P", description = "Only keys that start with P (in the same encoding as the keys).")
    String prefix;

    @Option(names = "--limit", paramLabel = "N", description = "At most N keys.")
    Long limit;

    @Mixin
    KeyEncoding.Options encoding;

    @Override
    public Integer call() throws IOException {
        KeyEncoding enc = encoding.encoding();
        byte[] p = prefix == null ? new byte[0] : enc.decode(prefix, "--prefix");
        if (limit != null && limit < 0) {
            throw new UsageException("--limit must not be negative: " + limit);
        }
        List<byte[]> keys;
        try (BitCask db = Stores.openReadOnly(dir)) {
            keys = db.keys().filter(k -> startsWith(k, p)).sorted(Arrays::compareUnsigned)
                    .limit(limit == null ? Long.MAX_VALUE : limit).toList();
        }
        OutputStream out = binaryOut();
        try {
            for (byte[] k : keys) {
                out.write(enc.line(k));
            }
            out.flush();
        } catch (IOException e) {
            if (!readerGone(e)) {
                throw e;
            }
        }
        return BitCaskCli.OK;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
