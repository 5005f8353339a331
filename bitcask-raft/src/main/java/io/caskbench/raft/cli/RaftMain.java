package io.caskbench.raft.cli;

import io.caskbench.bitcask.BitCaskException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * Threading: the main thread.
 *
 * <p>The command line of {@code bitcask-raft.jar}: {@code server} runs one replica until it is
 * stopped; {@code put}, {@code get} and {@code delete} are a client of a running cluster. Exit
 * codes and messages as the {@code bitcask} command's: 0 when the command did what it was asked,
 * 1 when a request failed or {@code get} found no value, 2 on bad usage, every message on stderr
 * after {@code bitcask-raft: }.
 */
@Command(name = "bitcask-raft", mixinStandardHelpOptions = true, versionProvider = RaftMain.Version.class,
        description = "Run a replica of a BitCask store replicated by Raft, or put, get and delete through the replicas.",
        subcommands = {ServerCommand.class, PutCommand.class, GetCommand.class, DeleteCommand.class,
                CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done as asked", "1:the request failed (no majority, a refused TLS handshake), or get found no value",
                "2:bad usage"})
public final class RaftMain implements Callable<Integer> {

    /** Exit code: done as asked. */
    static final int OK = 0;
    /** Exit code: the request failed, or the key is absent. */
    static final int FAILED = 1;
    /** Exit code: bad usage. */
    static final int USAGE = 2;

    /** Set by picocli; the parsing thread. */
    @Spec
    CommandSpec spec;

    private RaftMain() {
    }

    /** {@code bitcask-raft} without a command: the usage, as for any other bad usage. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return USAGE;
    }

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        // Ratis logs every setting at INFO; a replica's log keeps warnings and this module's own lines.
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.ratis",
                System.getProperty("org.slf4j.simpleLogger.log.org.apache.ratis", "warn"));
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command line, printing to {@code out} and {@code err}; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new RaftMain());
        cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cli.setExecutionExceptionHandler(RaftMain::failure);
        cli.setParameterExceptionHandler(RaftMain::badUsage);
        return cli.execute(args);
    }

    /**
     * A command line picocli could not parse: its message with the {@code bitcask-raft:} prefix
     * every message has, picocli's suggestions for a mistyped name, and where the usage is.
     */
    private static int badUsage(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("bitcask-raft: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println(tryHelp(cmd));
        err.flush();
        return USAGE;
    }

    /** Turns what a command threw into a message on stderr and an exit code. */
    private static int failure(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        if (e instanceof IllegalArgumentException) {
            // A malformed peer list, an id that is not a peer, a key over the limits: bad usage.
            err.println("bitcask-raft: " + e.getMessage());
            err.println(tryHelp(cmd));
            err.flush();
            return USAGE;
        }
        if (e instanceof BitCaskException) {
            err.println("bitcask-raft: " + e.getMessage());
        } else {
            err.println("bitcask-raft: unexpected failure:");
            e.printStackTrace(err);
        }
        err.flush();
        return FAILED;
    }

    private static String tryHelp(CommandLine cmd) {
        return "Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the usage.";
    }

    /** The version of the jar, from its manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = RaftMain.class.getPackage().getImplementationVersion();
            return new String[] {"bitcask-raft " + (v == null ? "(development build)" : v)};
        }
    }
}
