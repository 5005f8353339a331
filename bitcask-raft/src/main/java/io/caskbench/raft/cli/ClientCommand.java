package io.caskbench.raft.cli;

import io.caskbench.raft.client.ReplicatedBitCask;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Threading: the main thread.
 *
 * <p>A command that is a client of a running cluster, about one key given as UTF-8 text.
 */
abstract class ClientCommand implements Callable<Integer> {

    /** Set by picocli. */
    @Spec
    CommandSpec spec;

    /** Set by picocli. */
    @Mixin
    ClusterOptions clusterOptions;

    /** Set by picocli. */
    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "10000",
            description = "Give up after this long without a majority. Default: ${DEFAULT-VALUE}.")
    long timeoutMs;

    /** Set by picocli. */
    @Parameters(index = "0", paramLabel = "KEY", description = "The key, as UTF-8 text.")
    String key;

    @Override
    public Integer call() {
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("--timeout-ms must be positive, not " + timeoutMs);
        }
        try (ReplicatedBitCask client = ReplicatedBitCask.connect(clusterOptions.cluster(), Duration.ofMillis(timeoutMs),
                clusterOptions.tls())) {
            return run(client, key.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Sends the command's request through {@code client}; the exit code. */
    abstract int run(ReplicatedBitCask client, byte[] keyBytes);
}
