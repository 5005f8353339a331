package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentReader;

import java.util.Arrays;

/**
 * Threading: immutable once read, but for {@code bytes}, which no one changes.
 *
 * <p>A data file's header as open reads it: the first intact copy decides; the other copy is only
 * checked, so that a verifier can report it and a repair can restore it.
 *
 * @param size            length of the file
 * @param bytes           the first {@link RecordFormat#FILE_HEADER_SIZE} bytes, zero-padded
 * @param intactBlock     offset of the copy open reads, or -1 when neither is intact
 * @param versionOne      true when the file starts like a header of format version 1
 * @param version         version of the intact copy, or -1
 * @param segmentId       segment id of the intact copy
 * @param salt            salt of the intact copy
 * @param otherCopyIntact true when the copy open does not read is intact as well
 * @param copiesEqual     true when both copies hold the same bytes
 */
record FileHeader(long size, byte[] bytes, int intactBlock, boolean versionOne, int version, long segmentId,
                  long salt, boolean otherCopyIntact, boolean copiesEqual) {

    static FileHeader read(SegmentReader reader, long size) {
        byte[] h = new byte[RecordFormat.FILE_HEADER_SIZE];
        reader.read(0, h, 0, (int) Math.min(size, h.length));
        int at = size >= RecordFormat.FILE_HEADER_SIZE ? RecordFormat.intactHeaderBlock(h) : -1;
        if (at < 0) {
            return new FileHeader(size, h, -1, RecordFormat.isVersionOneHeader(h), -1, 0, 0, false, false);
        }
        int block = RecordFormat.HEADER_BLOCK_SIZE;
        // The second copy alone, as the first block of a header: intact exactly when that copy is.
        boolean secondIntact = RecordFormat.intactHeaderBlock(Arrays.copyOfRange(h, block, block + RecordFormat.FILE_HEADER_SIZE)) == 0;
        boolean equal = Arrays.equals(h, 0, block, h, block, 2 * block);
        return new FileHeader(size, h, at, false, RecordFormat.headerVersion(h, at), RecordFormat.headerSegmentId(h, at),
                RecordFormat.headerSalt(h, at), at == 0 && secondIntact, equal);
    }
}
