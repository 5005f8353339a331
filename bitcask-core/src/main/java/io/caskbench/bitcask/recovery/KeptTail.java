package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.segment.SegmentScanner;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Threading: static helpers and an immutable record, safe everywhere; a reader it opens is for one
 * thread at a time, as any.
 *
 * <p>The bytes that open, or a repair, cuts off the newest segment, kept beside it so that no record
 * that checks is ever deleted: a torn batch's members check one by one, and so do those of a batch
 * damaged at the end of the file. Bytes in which no record checks (a record torn by a crash, zeros
 * of unused space) are cut without a copy, as there is nothing in them to read. The file is {@code <segment file>.tail-<offset>} (then
 * {@code -2}, {@code -3}, … if that name is taken), which no store operation reads or deletes: it
 * holds the segment's file header, whose salt checks the records, then the cut bytes from
 * {@code offset} on, less the zeros after the last record in them, which are unused space. It is
 * written through a temporary file renamed into place and forced, directory included, before the
 * segment is cut. Verify reports it; a salvage reads it; only a person deletes it.
 *
 * @param file   the tail file
 * @param data   the data file it was cut off
 * @param offset where in that data file its bytes lay
 */
public record KeptTail(Path file, Path data, long offset) {

    /** Infix between the data file's name and the offset. */
    static final String INFIX = ".tail-";
    private static final Pattern NAME = Pattern.compile("(\\d{9,18}" + Pattern.quote(SegmentFiles.DATA_SUFFIX) + ")"
            + Pattern.quote(INFIX) + "(\\d{1,19})(-\\d{1,9})?");
    private static final int CHUNK = 64 << 10;

    /** The kept tails in {@code dir}, by name. */
    public static List<KeptTail> list(Path dir) {
        List<KeptTail> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SegmentFiles.DATA_SUFFIX + INFIX + "*")) {
            for (Path f : files) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (m.matches() && Files.isRegularFile(f)) {
                    found.add(new KeptTail(f, f.resolveSibling(m.group(1)), Long.parseLong(m.group(2))));
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new BitCaskException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        found.sort(Comparator.comparing(t -> t.file().getFileName().toString()));
        return found;
    }

    /** The name {@link #keep} gives the tail of {@code data} cut at {@code cut}: the first that is free. */
    static Path nameFor(Path data, long cut) {
        Path tail = data.resolveSibling(data.getFileName() + INFIX + cut);
        for (int n = 2; Files.exists(tail); n++) {
            tail = data.resolveSibling(data.getFileName() + INFIX + cut + "-" + n);
        }
        return tail;
    }

    /**
     * Keeps bytes {@code [cut, length)} of segment {@code id}'s {@code data} file, read through
     * {@code reader}, in a new tail file beside it, durably; returns it, or null when no record in
     * them checks on its own (a record torn by a crash, or bad bytes): those are cut as they are.
     *
     * @throws BitCaskException when the file cannot be written; the segment must then stay uncut
     */
    static Path keep(SegmentBackend backend, SegmentReader reader, Path data, long id, long salt, long cut, long length) {
        long end = keptEnd(reader, salt, cut, length);
        if (end < 0) {
            return null;
        }
        Path tail = nameFor(data, cut);
        byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
        RecordFormat.encodeFileHeader(header, id, salt);
        Path tmp = SegmentFiles.tempFile(tail);
        backend.copyPrefix(new SegmentReader() {
            @Override
            public void read(long position, byte[] dst, int off, int len) {
                int fromHeader = (int) Math.max(0, Math.min(len, header.length - position));
                if (fromHeader > 0) {
                    System.arraycopy(header, (int) position, dst, off, fromHeader);
                }
                if (len > fromHeader) {
                    reader.read(cut + position + fromHeader - header.length, dst, off + fromHeader, len - fromHeader);
                }
            }

            @Override
            public long size() {
                return header.length + end - cut;
            }

            @Override
            public void close() {
                // the caller's reader stays open
            }
        }, header.length + end - cut, tmp);
        backend.rename(tmp, tail);
        backend.forceDirectory(data.getParent());
        return tail;
    }

    /**
     * Where the kept bytes end: after the last byte that is not zero, and never before the end of a
     * batch member that checks, whose value may end in zeros; -1 when no member checks.
     */
    private static long keptEnd(SegmentReader reader, long salt, long cut, long length) {
        long[] end = {-1};
        new SegmentScanner(reader, length, salt, StoreVerifier.SILENT).scan(cut, (offset, buf, off, len) -> { },
                (unit, unitEnd, headerIntact, offset, buf, off, len) -> end[0] = Math.max(end[0], offset + len));
        byte[] chunk = new byte[CHUNK];
        for (long to = length; end[0] >= 0 && to > end[0]; ) {
            int n = (int) Math.min(CHUNK, to - end[0]);
            reader.read(to - n, chunk, 0, n);
            for (int i = n - 1; i >= 0; i--) {
                if (chunk[i] != 0) {
                    return to - n + i + 1;
                }
            }
            to -= n;
        }
        return end[0];
    }

    /**
     * A reader of the kept bytes at their offsets in the data file they were cut off, from
     * {@link #offset()} on, and the salt that checks them; the caller closes it.
     */
    public Opened open(SegmentBackend backend) {
        SegmentReader file = backend.openReadOnly(this.file);
        try {
            long size = file.size();
            FileHeader h = FileHeader.read(file, size);
            if (h.intactBlock() < 0 || size < RecordFormat.FILE_HEADER_SIZE) {
                throw new BitCaskException(this.file + " has no intact file header: its records cannot be checked");
            }
            return new Opened(new Shifted(file, offset, size - RecordFormat.FILE_HEADER_SIZE), h.salt());
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** How many records in the kept bytes check on their own; every one is a batch member. */
    public long recordsThatCheck(SegmentBackend backend) {
        Opened t = open(backend);
        try (SegmentReader reader = t.reader()) {
            long[] n = {0};
            new SegmentScanner(reader, reader.size(), t.salt(), StoreVerifier.SILENT)
                    .scan(offset, (o, buf, off, len) -> n[0]++, (unit, unitEnd, headerIntact, o, buf, off, len) -> n[0]++);
            return n[0];
        }
    }

    /**
     * An opened tail.
     *
     * @param reader reads positions from the tail's offset up to its {@code size()}
     * @param salt   the salt of the segment it was cut off
     */
    public record Opened(SegmentReader reader, long salt) {
    }

    /** The tail file's bytes after its header, at their offsets in the data file. */
    private record Shifted(SegmentReader file, long offset, long length) implements SegmentReader {

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            if (position < offset || position + len > offset + length) {
                throw new BitCaskException("bytes [" + position + ", " + (position + len) + ") are not in a tail kept from offset "
                        + offset + " (" + length + " bytes)");
            }
            file.read(RecordFormat.FILE_HEADER_SIZE + position - offset, dst, off, len);
        }

        @Override
        public long size() {
            return offset + length;
        }

        @Override
        public void close() {
            file.close();
        }
    }
}
