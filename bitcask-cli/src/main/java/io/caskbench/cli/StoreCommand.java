package io.caskbench.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** A subcommand whose first argument is the store directory. */
abstract class StoreCommand implements Callable<Integer> {

    @ParentCommand
    BitCaskCli root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The store directory.")
    Path dir;

    /** Text output. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** A progress listener that draws on stderr when it is a terminal and --no-progress is not given. */
    Progress progress(String unit) {
        return root.progress(unit);
    }

    /**
     * Standard output for bytes, buffered. Unlike {@code System.out} it reports a failed write, so
     * a full disk is an error, and a reader that went away ends the command.
     */
    static OutputStream binaryOut() {
        return new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    }

    /** True when a write failed because the reader of a pipe went away (as {@code | head} does). */
    static boolean readerGone(IOException e) {
        String m = e.getMessage();
        return m != null && m.contains("Broken pipe");
    }
}
