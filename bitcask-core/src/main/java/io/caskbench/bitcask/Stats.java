package io.caskbench.bitcask;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Threading: static, any thread; the figures it reads may be a little old (see {@link Segment}).
 *
 * <p>Builds {@link BitCaskStats} from the segment table and the key directory.
 */
final class Stats {

    private Stats() {
    }

    /**
     * The store's figures now; {@code active} is the segment appended to, or null. The segments' figures
     * are read outside any merge's swap ({@link SegmentTable#stable}), so they never count a merge's copies
     * beside the segments they replace, and newest first: a put counts its record live in the newest
     * segment before it counts the one it replaced dead in an older one, so read in this order the live
     * bytes miss puts made meanwhile rather than count both records, beyond the few still copying. The hint
     * files are sized after.
     */
    static BitCaskStats of(Path dir, SegmentTable table, KeyDir keyDir, Segment active) {
        List<BitCaskStats.SegmentStats> per = table.stable(all -> {
            BitCaskStats.SegmentStats[] figures = new BitCaskStats.SegmentStats[all.size()];
            for (int i = all.size() - 1; i >= 0; i--) {
                Segment seg = all.get(i);
                figures[i] = new BitCaskStats.SegmentStats(seg.id(), seg == active, seg.dataBytes(), seg.liveBytes());
            }
            return List.of(figures);
        });
        long live = 0;
        long data = 0;
        long disk = 0;
        for (int i = 0; i < per.size(); i++) {
            BitCaskStats.SegmentStats seg = per.get(i);
            live += seg.liveBytes();
            data += seg.dataBytes();
            disk += seg.dataBytes() + RecordFormat.FILE_HEADER_SIZE;
            try {
                Path hint = SegmentFiles.hintFile(dir, seg.id());
                if (Files.exists(hint)) {
                    disk += Files.size(hint);
                }
            } catch (IOException ignored) {
                // a hint file removed meanwhile counts as absent
            }
        }
        return new BitCaskStats(keyDir.size(), live, data - live, per.size(), disk, keyDir.heapBytes(), per);
    }
}
