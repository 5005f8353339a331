package io.caskbench.bitcask.segment;

import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.RecordFormat;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Threading: static; each build runs on its caller's thread.
 *
 * <p>The content of a data file's hint, from a scan of it: every record the scan accepts, and every
 * member of a damaged batch that checks on its own and that the file's earlier hint listed. A usable
 * hint lists only what a scan accepted after the data was forced, so a batch it lists was whole on
 * the disk once: a member that fails later is damage, not a torn write, and the members that still
 * check were readable through that hint. Leaving them out, as a plain scan does, would make a
 * rewritten hint (a repair's, or the one close writes for a reopened segment) drop every readable
 * member of the batch for the one that is damaged. A batch the earlier hint did not list is never
 * taken in part: open does not apply it from a scan either.
 *
 * <p>Where a kept member lies in bad bytes, the hint covers them up to their end, and it covers
 * bad bytes at the end of the file as far as the earlier hint did: open scans a segment only past
 * what its hint covers, so it neither cuts off nor reads as a torn tail what was whole once. The
 * earlier hint is read only when the scan meets such a member or such a tail.
 */
public final class HintScan {

    private HintScan() {
    }

    /**
     * The hint of the first {@code length} bytes of segment {@code id}, read by {@code scanner};
     * {@code previous} supplies the bytes of the segment's earlier hint file, or null when there is none.
     */
    public static byte[] build(SegmentScanner scanner, long id, long salt, long length, Supplier<byte[]> previous) {
        HintFormat.Builder hint = new HintFormat.Builder(id, salt);
        Listed[] earlier = new Listed[1];
        Supplier<Listed> listed = () -> {
            if (earlier[0] == null) {
                earlier[0] = Listed.of(previous.get(), id, salt, length);
            }
            return earlier[0];
        };
        long[] covered = {0};
        SegmentScanner.Result r = scanner.scan(RecordFormat.FILE_HEADER_SIZE, hint::add,
                (unit, unitEnd, headerIntact, offset, buf, off, len) -> {
                    if (listed.get().lists(offset, buf, off, len)) {
                        hint.add(offset, buf, off, len);
                        covered[0] = Math.max(covered[0], unitEnd);
                    }
                });
        if (r.tornBytes() > 0) {
            // Bad bytes the earlier hint covered were whole when it was written: damage, which open keeps
            // reading through the hint, never a tail it cuts.
            covered[0] = Math.max(covered[0], listed.get().covered());
        }
        return hint.finish(Math.max(r.end(), covered[0]));
    }

    /**
     * The entries of a usable hint file by the offset of the record each lists, and where its data
     * ends; none, and 0, for an unusable one.
     */
    private record Listed(byte[] hint, Map<Long, Integer> entries, long covered) {

        static Listed of(byte[] hint, long id, long salt, long dataLength) {
            Map<Long, Integer> entries = new HashMap<>();
            HintFormat.Validation v = hint == null ? null : HintFormat.validate(hint, id, salt, dataLength);
            if (v == null || !v.usable()) {
                return new Listed(hint, entries, 0);
            }
            HintFormat.forEach(hint, (offset, recordLength, flags, expiresAt, buf, keyOff, keyLength) ->
                    entries.put(offset, keyOff - HintFormat.ENTRY_SIZE));
            return new Listed(hint, entries, v.covered());
        }

        /** True when an entry lists the record {@code buf[off, off + length)} at {@code offset}, key, flags and all. */
        boolean lists(long offset, byte[] buf, int off, int length) {
            Integer p = entries.get(offset);
            return p != null && HintFormat.lists(hint, p, buf, off, length);
        }
    }
}
