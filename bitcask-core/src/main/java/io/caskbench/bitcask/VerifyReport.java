package io.caskbench.bitcask;

import io.caskbench.bitcask.format.RecordFormat;

import java.nio.file.Path;
import java.util.List;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>What {@link BitCask#verify} found in a store directory: one entry per data file, and every
 * finding with its file, kind and byte range. The verifier applies recovery's own rules (the same
 * header checks and the same record scanner that open uses), so each finding says what open does
 * about it; see {@link Kind}.
 *
 * @param directory     the store directory
 * @param depth         how much was read
 * @param formatVersion the format version this release reads and writes
 * @param liveWriter    true when a writer held the directory's lock while it was checked: findings
 *                      on the newest segment, its hint and {@code *.tmp} files may then be writes in progress
 * @param segments      one entry per data file, oldest first
 * @param findings      everything found, in file order
 * @param bytesRead     bytes of data and hint files read
 */
public record VerifyReport(Path directory, Depth depth, int formatVersion, boolean liveWriter,
                           List<SegmentReport> segments, List<Finding> findings, long bytesRead) {

    /** How much {@link BitCask#verify} reads. */
    public enum Depth {
        /** File headers and whole hint files, no record: fast, and enough for hint coverage. */
        FILES,
        /** Every record of every data file, and every hint entry against the data it lists. */
        RECORDS
    }

    /** A kind of damage, or of what a crash leaves behind. */
    public enum Kind {
        /** One copy of a data file's header fails its check; open reads the other. */
        HEADER_COPY_DAMAGED(false, "one copy of the file header fails its check; open reads the other copy"),
        /** The header copies differ, or the header names another segment than the file name. */
        HEADER_MISMATCH(false, "the file header disagrees with its other copy or with the file name; open reads the records all the same"),
        /** Neither copy of the header can be read, or it has no salt: none of the file's records can be checked. */
        HEADER_UNREADABLE(true, "no copy of the file header can be read, so none of its records can be checked; open skips the file and leaves it as it is"),
        /** The file ends inside its header: its creation was cut short, and it holds no record. */
        HEADER_CUT_SHORT(false, "the file ends inside its header and holds no record; open starts it again if it is the newest, and skips it otherwise"),
        /** A file of another format version: open refuses the whole store. */
        WRONG_VERSION(true, "the file is of another format version; open refuses the store"),
        /** Bytes that fail their check with valid records after them, or that a usable hint covers: open skips them. */
        CORRUPT_RECORDS(true, "bytes that fail their check, with valid records after them or a hint that covers them;"
                + " open skips them and keeps the records after, and what the hint lists"),
        /** Bytes that fail their check with no valid record after them. */
        TORN_TAIL(true, "bytes that fail their check at the end of the file; open ignores them, and cuts them off the newest segment"),
        /** A data file has no hint file. */
        HINT_MISSING(false, "no hint file; open scans the data file instead"),
        /** A hint file fails its own checks (CRC, header, written for another file, entries out of range). */
        HINT_UNUSABLE(false, "the hint file fails its checks; open ignores it and scans the data file"),
        /** A hint file lists only a prefix of its data file's records. */
        HINT_STALE(false, "the hint file lists only part of the data file; open scans the rest"),
        /** A hint file passes its own checks but disagrees with its data file, which open would not notice. */
        HINT_MISMATCH(true, "the hint file passes its own checks but disagrees with its data file; open would trust it"),
        /** A hint file whose data file is gone. */
        ORPHAN_HINT(false, "a hint file without its data file; open ignores it"),
        /** A {@code *.tmp} file left by an interrupted merge or hint write. */
        DEBRIS(false, "a temporary file left by an interrupted write; open deletes it"),
        /**
         * Bytes that open (or a repair) cut off the newest segment, kept beside it in
         * {@code <segment>.tail-<offset>} as records in them check: no store operation reads or deletes
         * that file. Open lost nothing, so no record in the store is at risk; the file's records are a
         * torn write never acknowledged, or a damaged batch, for a person to salvage.
         */
        KEPT_TAIL(false, "bytes cut off the newest segment at open, kept for salvage: the store no longer reads them;"
                + " 'bitcask dump --skip-corrupt' writes out the records in them that check, then delete the file"),
        /** A file that could not be read at all. */
        UNREADABLE(true, "the file cannot be read");

        private final boolean dataAtRisk;
        private final String meaning;

        Kind(boolean dataAtRisk, String meaning) {
            this.dataAtRisk = dataAtRisk;
            this.meaning = meaning;
        }

        /**
         * True when records are, or may be, unreadable or wrong because of it; false for what a
         * crash leaves behind and open handles without losing anything.
         */
        public boolean dataAtRisk() {
            return dataAtRisk;
        }

        /** One sentence on what it is and what open does about it. */
        public String meaning() {
            return meaning;
        }
    }

    /** What was found about a data file's hint. */
    public enum HintState {
        /** There is no hint file. */
        MISSING,
        /** The hint file fails its checks; open ignores it. */
        UNUSABLE,
        /** Open uses the hint file. */
        USABLE,
        /** The hint file passes its checks, so open would use it, but it disagrees with its data file. */
        WRONG,
        /** Not checked: the data file's header cannot be read. */
        NOT_CHECKED
    }

    /**
     * One finding.
     *
     * @param file   the file it is in
     * @param kind   what it is
     * @param offset where it starts in the file, or -1 when it concerns the whole file
     * @param length how many bytes it spans, or -1 when it concerns the whole file
     * @param detail what exactly was found
     */
    public record Finding(Path file, Kind kind, long offset, long length, String detail) {
    }

    /**
     * What was found about one data file and its hint.
     *
     * @param id            the segment id of its name
     * @param file          the data file
     * @param size          its length in bytes
     * @param version       the format version of its header, or -1 when no copy could be read
     * @param newest        true for the newest segment, the one open reopens for appending
     * @param records       records accepted, or -1 when not read ({@link Depth#FILES}, or no header)
     * @param validEnd      where its valid content ends, or -1 when not read
     * @param hint          the state of its hint file
     * @param hintCovered   the data offset up to which a usable hint lists the records, else 0
     */
    public record SegmentReport(long id, Path file, long size, int version, boolean newest, long records,
                                long validEnd, HintState hint, long hintCovered) {

        /** Bytes of the data file that open reads from the hint instead of scanning: 0 without a usable hint. */
        public long hintedBytes() {
            return hint == HintState.USABLE ? hintCovered : 0;
        }

        /**
         * Bytes of records, past the file header, that a usable hint lists: the share of the segment's
         * data bytes that open need not scan. Compare it with the data bytes, never with {@link #size()}:
         * the file of a segment a writer appends to is longer than its data.
         */
        public long hintedRecordBytes() {
            return Math.max(0, hintedBytes() - RecordFormat.FILE_HEADER_SIZE);
        }
    }

    /** True when nothing was found: the directory is as a clean close leaves it. */
    public boolean clean() {
        return findings.isEmpty();
    }

    /** True when some finding puts records at risk (see {@link Kind#dataAtRisk()}). */
    public boolean dataAtRisk() {
        return findings.stream().anyMatch(f -> f.kind().dataAtRisk());
    }

    /** The findings in {@code file}. */
    public List<Finding> findings(Path file) {
        return findings.stream().filter(f -> f.file().equals(file)).toList();
    }

    /** The findings of {@code kind}. */
    public List<Finding> findings(Kind kind) {
        return findings.stream().filter(f -> f.kind() == kind).toList();
    }
}
