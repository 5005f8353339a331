package io.caskbench.raft.cli;

import io.caskbench.raft.client.ReplicatedBitCask;
import picocli.CommandLine.Command;

/** {@code bitcask-raft delete KEY}: deletes a key once a majority holds the delete. */
@Command(name = "delete", mixinStandardHelpOptions = true,
        description = {"Delete KEY; prints 'deleted', or 'absent' when there was no live value (exit code 0 both)."})
final class DeleteCommand extends ClientCommand {

    @Override
    int run(ReplicatedBitCask client, byte[] keyBytes) {
        spec.commandLine().getOut().println(client.delete(keyBytes) ? "deleted" : "absent");
        return RaftMain.OK;
    }
}
