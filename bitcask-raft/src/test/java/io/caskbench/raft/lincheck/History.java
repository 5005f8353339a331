package io.caskbench.raft.lincheck;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Threading: safe for any number of client threads.
 *
 * <p>Every operation of a test run with its invocation and completion times and its value, for
 * the linearizability checker. A put whose call failed has an unknown outcome (it may still take
 * effect) and is written with return -1; a get that failed had no effect and is left out.
 */
public final class History {

    /** The recorded operations; guarded by this. */
    private final List<Map<String, Object>> ops = new ArrayList<>();
    /** The time origin, so times are small numbers. */
    private final long origin = System.nanoTime();

    /** Runs a put and records it; rethrows what the put threw after recording it as unknown. */
    public void put(int client, String key, String value, Runnable put) {
        long call = System.nanoTime() - origin;
        try {
            put.run();
        } catch (RuntimeException e) {
            add(client, "put", key, value, "", call, -1);
            throw e;
        }
        add(client, "put", key, value, "", call, System.nanoTime() - origin);
    }

    /** Runs a get and records it with its result (null recorded as ""); a failed get is not recorded. */
    public String get(int client, String key, Supplier<String> get) {
        long call = System.nanoTime() - origin;
        String out = get.get();
        add(client, "get", key, "", out == null ? "" : out, call, System.nanoTime() - origin);
        return out;
    }

    private synchronized void add(int client, String op, String key, String value, String output, long call, long ret) {
        ops.add(Map.of("client", client, "op", op, "key", key, "value", value, "output", output,
                "call", call, "return", ret));
    }

    /** The number of operations recorded. */
    public synchronized int size() {
        return ops.size();
    }

    /** Writes the history as a JSON array. */
    public synchronized void write(Path file) {
        try {
            new ObjectMapper().writeValue(file.toFile(), ops);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
