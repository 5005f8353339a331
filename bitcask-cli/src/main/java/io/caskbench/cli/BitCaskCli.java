package io.caskbench.cli;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskLockedException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;

/**
 * The {@code bitcask} command: inspect, verify, repair and operate a store directory. Exit codes:
 * 0 when all is well, 1 when damage was found or the operation failed, 2 on bad usage.
 */
@Command(name = "bitcask", mixinStandardHelpOptions = true, versionProvider = BitCaskCli.Version.class,
        description = "Inspect, verify, repair and operate a BitCask store directory.",
        subcommands = {StatsCommand.class, VerifyCommand.class, RepairCommand.class, GetCommand.class,
                PutCommand.class, DeleteCommand.class, KeysCommand.class, DumpCommand.class, LoadCommand.class,
                MergeCommand.class, BackupCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:all is well", "1:damage found, or the operation failed", "2:bad usage"})
public final class BitCaskCli implements Callable<Integer> {

    /** Exit code: all is well. */
    static final int OK = 0;
    /** Exit code: damage was found, or the operation failed. */
    static final int FAILED = 1;
    /** Exit code: bad usage. */
    static final int USAGE = 2;

    @Option(names = "--no-progress", scope = ScopeType.INHERIT,
            description = "Never draw a progress bar (one is drawn on stderr only when it is a terminal).")
    boolean noProgress;

    @Spec
    CommandSpec spec;

    private BitCaskCli() {
    }

    /** {@code bitcask} without a command: the usage, as for any other bad usage. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return USAGE;
    }

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line; returns the exit code. */
    static int run(String... args) {
        quietLogging();
        CommandLine cli = new CommandLine(new BitCaskCli());
        cli.setExecutionExceptionHandler(BitCaskCli::failure);
        cli.setParameterExceptionHandler(BitCaskCli::badUsage);
        return cli.execute(args);
    }

    /** A progress listener for a command, drawn only when asked for and stderr is a terminal. */
    Progress progress(String unit) {
        return new Progress(!noProgress && Progress.terminal(), unit);
    }

    /**
     * The store logs through slf4j; its WARNs (a torn tail cut at open, a hint it ignored) are for
     * the operator, on stderr, one line each. A -D option given to the JVM wins.
     */
    private static void quietLogging() {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
        setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        setIfAbsent("org.slf4j.simpleLogger.showLogName", "false");
    }

    /**
     * Silences the store's own warnings, for a command that reports the same findings itself: they
     * would name files the command reads through, not the store's. Only loggers created afterwards
     * hear of it, so a command calls it before it opens or verifies a store.
     */
    static void quietStore() {
        setIfAbsent("org.slf4j.simpleLogger.log.io.caskbench.bitcask", "error");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /**
     * A command line picocli could not parse: its message with the {@code bitcask:} prefix every
     * message has, picocli's suggestions for a mistyped name, and where the usage is.
     */
    private static int badUsage(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("bitcask: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the usage.");
        err.flush();
        return USAGE;
    }

    /** Turns what a command threw into a message on stderr and an exit code. */
    private static int failure(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        if (e instanceof UsageException || e instanceof IllegalArgumentException) {
            err.println("bitcask: " + e.getMessage());
            err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the usage.");
            return USAGE;
        }
        if (e instanceof BitCaskLockedException) {
            err.println("bitcask: " + e.getMessage() + "; stop the process that holds it, then try again");
        } else if (e instanceof BitCaskException) {
            err.println("bitcask: " + e.getMessage());
        } else if (e instanceof IOException || e instanceof UncheckedIOException) {
            err.println("bitcask: " + (e.getCause() != null && e instanceof UncheckedIOException ? e.getCause() : e));
        } else {
            err.println("bitcask: unexpected failure:");
            e.printStackTrace(err);
        }
        err.flush();
        return FAILED;
    }

    /** The version of the jar, from its manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = BitCaskCli.class.getPackage().getImplementationVersion();
            return new String[] {"bitcask " + (v == null ? "(development build)" : v)};
        }
    }
}
