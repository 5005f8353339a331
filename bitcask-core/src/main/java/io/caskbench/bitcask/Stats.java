package io.caskbench.bitcask;

import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Threading: static, any thread; the figures it reads may be a little old (see {@link Segment}).
 *
 * <p>Builds {@link BitCaskStats} from the segment table and the key directory.
 */
final class Stats {

    private Stats() {
    }

    /** The store's figures now; {@code active} is the segment appended to, or null. */
    static BitCaskStats of(Path dir, SegmentTable table, KeyDir keyDir, Segment active) {
        List<BitCaskStats.SegmentStats> per = new ArrayList<>();
        long live = 0;
        long data = 0;
        long disk = 0;
        for (Segment seg : table.inOrder()) {
            per.add(new BitCaskStats.SegmentStats(seg.id(), seg == active, seg.dataBytes(), seg.liveBytes()));
            live += seg.liveBytes();
            data += seg.dataBytes();
            disk += seg.end();
            try {
                Path hint = SegmentFiles.hintFile(dir, seg.id());
                if (Files.exists(hint)) {
                    disk += Files.size(hint);
                }
            } catch (IOException ignored) {
                // a hint file removed meanwhile counts as absent
            }
        }
        return new BitCaskStats(keyDir.size(), live, data - live, per.size(), disk, keyDir.heapBytes(), List.copyOf(per));
    }
}
