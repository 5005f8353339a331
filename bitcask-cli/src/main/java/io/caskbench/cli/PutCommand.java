package io.caskbench.cli;

import io.caskbench.bitcask.BitCask;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** {@code bitcask put DIR KEY}: stores a value given as an option or on stdin. */
@Command(name = "put", description = {
        "Store a value under KEY: --value, or else all of stdin (as bytes, or as hex or base64 text).",
        "Opens the store for writing, so it refuses a directory a live writer holds."})
final class PutCommand extends KeyCommand {

    @Option(names = "--value", paramLabel = "VALUE", description = "The value; without it, stdin is read to its end.")
    String value;

    @Option(names = "--ttl", paramLabel = "DURATION", converter = Durations.class,
            description = "Expire the key after this long: 90s, 30m, 12h, 7d or ISO-8601 such as PT1H30M.")
    Duration ttl;

    @Option(names = "--create", description = "Make a new store when DIR is missing or empty.")
    boolean create;

    @Override
    public Integer call() throws IOException {
        KeyEncoding enc = encoding();
        byte[] k = keyBytes();
        byte[] v;
        if (value != null) {
            v = enc.decode(value, "VALUE");
        } else {
            byte[] in = System.in.readAllBytes();
            v = enc == KeyEncoding.UTF8 ? in : enc.decode(new String(in, StandardCharsets.US_ASCII), "stdin");
        }
        try (BitCask db = Stores.openWritable(dir, create)) {
            if (ttl == null) {
                db.put(k, v);
            } else {
                db.put(k, v, ttl);
            }
        }
        return BitCaskCli.OK;
    }
}
