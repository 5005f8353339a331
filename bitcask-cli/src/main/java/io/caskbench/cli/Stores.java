package io.caskbench.cli;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Checks a command's store directory and opens the store in it, with messages that say what is wrong. */
final class Stores {

    /** The format's largest key: a tool that writes must take every key a dump can hold. */
    private static final int LARGEST_KEY = 65_535;

    private Stores() {
    }

    /**
     * {@code dir}, when it holds a store.
     *
     * @throws UsageException when it is missing, not a directory, or holds no store
     */
    static Path existing(Path dir) {
        if (!Files.exists(dir)) {
            throw new UsageException("no such directory: " + dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new UsageException("not a directory: " + dir);
        }
        if (!BitCask.isStore(dir)) {
            throw new UsageException(dir + " is not a BitCask store: it holds no data, hint or LOCK file");
        }
        return dir;
    }

    /**
     * {@code dir}, when it holds a store, or when {@code create} and it is missing or empty.
     *
     * @throws UsageException otherwise
     */
    static Path forWriting(Path dir, boolean create) {
        if (BitCask.isStore(dir)) {
            return dir;
        }
        if (!create) {
            try {
                return existing(dir);
            } catch (UsageException e) {
                throw new UsageException(e.getMessage() + " (--create makes a new store)");
            }
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageException("not a directory: " + dir);
        }
        if (Files.isDirectory(dir) && !empty(dir)) {
            throw new UsageException(dir + " holds other files and no BitCask store; --create makes a store only in a missing or empty directory");
        }
        return dir;
    }

    private static boolean empty(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Opens the store in {@code dir} read-only: it takes no lock, so it works beside a running
     * writer. Reads go through positional reads, so a writer that truncates a file cannot harm them.
     */
    static BitCask openReadOnly(Path dir) {
        return BitCask.open(existing(dir), BitCaskOptions.builder().readOnly(true).backend(Backend.FILE_CHANNEL).build());
    }

    /**
     * Opens the store in {@code dir} for writing; it takes the store's lock, so it refuses a live writer.
     * No automatic merge: a command does what it was asked, and {@code bitcask merge} is how it merges.
     */
    static BitCask openWritable(Path dir, boolean create) {
        return BitCask.open(forWriting(dir, create), BitCaskOptions.builder().maxKeySize(LARGEST_KEY).autoMerge(false).build());
    }
}
