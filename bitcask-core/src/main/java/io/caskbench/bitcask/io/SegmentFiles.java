package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Threading: static helpers, safe everywhere.
 *
 * <p>Names of the files in a store directory: {@code <id>.data}, {@code <id>.hint}, {@code LOCK}. An
 * id is written with at least nine digits and at most eighteen; ids are compared as numbers, so a
 * tenth digit sorts correctly.
 */
public final class SegmentFiles {

    /** Suffix of data files. */
    public static final String DATA_SUFFIX = ".data";
    /** Suffix of hint files. */
    public static final String HINT_SUFFIX = ".hint";
    /** Suffix of files being written; any left at open are debris of a crash. */
    public static final String TEMP_SUFFIX = ".tmp";
    /** Name of the lock file. */
    public static final String LOCK_FILE = "LOCK";
    /**
     * Largest segment id. Ids are never reused, and a merge takes a few; at a million new segments a
     * second this lasts 30,000 years.
     */
    public static final long MAX_ID = 999_999_999_999_999_999L;
    private static final int MIN_DIGITS = 9;
    private static final int MAX_DIGITS = 18;

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
                boolean canonical = digits.length() == MIN_DIGITS || (digits.length() <= MAX_DIGITS && digits.charAt(0) != '0');
                if (digits.length() >= MIN_DIGITS && canonical && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
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
}
