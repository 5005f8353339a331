package io.caskbench.raft.cli;

import io.caskbench.raft.client.ReplicatedBitCask;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;

/** {@code bitcask-raft get KEY}: prints a value, read linearizably or from one replica's store. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = {"Print the value of KEY as UTF-8 text, read linearizably through the leader.",
                "Exit code 1 when the key is absent."})
final class GetCommand extends ClientCommand {

    /** Set by picocli. */
    @Option(names = "--stale-from", paramLabel = "ID",
            description = "Read replica ID's store as it is now, without asking the leader: it may miss acknowledged writes.")
    String staleFrom;

    @Override
    int run(ReplicatedBitCask client, byte[] keyBytes) {
        byte[] v = staleFrom != null ? client.getStale(keyBytes, staleFrom) : client.get(keyBytes);
        if (v == null) {
            spec.commandLine().getErr().println("absent");
            return RaftMain.FAILED;
        }
        spec.commandLine().getOut().println(new String(v, StandardCharsets.UTF_8));
        return RaftMain.OK;
    }
}
