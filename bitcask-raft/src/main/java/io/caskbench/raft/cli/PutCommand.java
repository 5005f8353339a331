package io.caskbench.raft.cli;

import io.caskbench.raft.client.ReplicatedBitCask;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;

/** {@code bitcask-raft put KEY VALUE}: stores a value once a majority holds it. */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = {"Store VALUE under KEY; returns once a majority of the replicas holds it.",
                "When it fails (exit 1) the write may or may not be applied: read the key to learn which."})
final class PutCommand extends ClientCommand {

    /** Set by picocli. */
    @Parameters(index = "1", paramLabel = "VALUE", description = "The value, as UTF-8 text.")
    String value;

    @Override
    int run(ReplicatedBitCask client, byte[] keyBytes) {
        client.put(keyBytes, value.getBytes(StandardCharsets.UTF_8));
        return RaftMain.OK;
    }
}
