package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Names of the files in a store directory: {@code <9-digit id>.data}, {@code <id>.hint}, {@code LOCK}. */
public final class SegmentFiles {

    /** Suffix of data files. */
    public static final String DATA_SUFFIX = ".data";
    /** Suffix of hint files. */
    public static final String HINT_SUFFIX = ".hint";
    /** Suffix of files being written; any left at open are debris of a crash. */
    public static final String TEMP_SUFFIX = ".tmp";
    /** Name of the lock file. */
    public static final String LOCK_FILE = "LOCK";
    /** Largest segment id the nine-digit names can hold. */
    public static final long MAX_ID = 999_999_999L;

    private SegmentFiles() {
    }

    /** The data file of segment {@code id}. */
    public static Path dataFile(Path dir, long id) {
        return dir.resolve(name(id) + DATA_SUFFIX);
    }

    /** The hint file of segment {@code id}. */
    public static Path hintFile(Path dir, long id) {
        return dir.resolve(name(id) + HINT_SUFFIX);
    }

    /** A temporary sibling of {@code file}, renamed over it once complete. */
    public static Path tempFile(Path file) {
        return file.resolveSibling(file.getFileName() + TEMP_SUFFIX);
    }

    private static String name(long id) {
        if (id < 1 || id > MAX_ID) {
            throw new BitCaskException("segment id out of range: " + id);
        }
        return String.format("%09d", id);
    }

    /** Ids of the data files in {@code dir}, ascending. */
    public static List<Long> dataIds(Path dir) {
        List<Long> ids = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + DATA_SUFFIX)) {
            for (Path f : files) {
                String n = f.getFileName().toString();
                String digits = n.substring(0, n.length() - DATA_SUFFIX.length());
                if (digits.length() == 9 && digits.chars().allMatch(Character::isDigit)) {
                    ids.add(Long.parseLong(digits));
                }
            }
        } catch (IOException e) {
            throw new BitCaskException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        Collections.sort(ids);
        return ids;
    }

    /** Temporary files left by a crash. */
    public static List<Path> tempFiles(Path dir) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + TEMP_SUFFIX)) {
            files.forEach(found::add);
        } catch (IOException e) {
            throw new BitCaskException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        return found;
    }

    /** Forces a directory so that created, renamed and deleted names survive a power loss. */
    public static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open or force a directory; the data files are forced anyway.
        }
    }
}
