package io.caskbench.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** A subcommand about one key: {@code DIR KEY}, with the key in UTF-8, hex or base64. */
abstract class KeyCommand extends StoreCommand {

    @Parameters(index = "1", paramLabel = "KEY", description = "The key, as UTF-8 text unless --hex or --base64.")
    String key;

    @Mixin
    KeyEncoding.Options encodingOptions;

    /** The encoding of the key, of a value given on the command line, and of the output. */
    KeyEncoding encoding() {
        return encodingOptions.encoding();
    }

    /** The key's bytes. */
    byte[] keyBytes() {
        return encoding().decode(key, "KEY");
    }

    /** Says the key is absent; returns the exit code for it. */
    int notFound() {
        spec.commandLine().getErr().println("bitcask: key not found: " + key);
        return BitCaskCli.FAILED;
    }
}
