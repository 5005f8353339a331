package io.caskbench.bitcask;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.StoreFiles;
import io.caskbench.bitcask.testing.WatchingBackend;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SyncPolicy#INTERVAL} promises a force every interval, and an automatic merge runs in the
 * background too: the two must not wait for each other. The merge here is slowed to a crawl by its
 * byte rate, so it runs for many intervals; the test waits for events with generous bounds, not for time.
 */
class IntervalDuringMergeTest {

    /** Live bytes the merge must copy: at the rate below, about a minute of merging. */
    private static final int KEYS = 4_000;
    private static final int VALUE = 1_000;
    private static final long MERGE_BYTES_PER_SECOND = 64 << 10;

    @TempDir
    Path dir;

    @EveryBackend
    @Timeout(120)
    void theIntervalForceGoesOnWhileAnAutomaticMergeRuns(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(256 << 10)
                .syncPolicy(SyncPolicy.INTERVAL).syncInterval(Duration.ofMillis(20))
                .autoMerge(true).mergeCheckInterval(Duration.ofMillis(20)).mergeDeadRatio(0.3)
                .mergeBytesPerSecond(MERGE_BYTES_PER_SECOND).build();
        try (BitCask db = BitCask.open(dir, o)) {
            // Half of the first round is overwritten: every segment of it is half dead, so the
            // selective automatic merge takes them all and has their other half to copy.
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < KEYS; i += round + 1) {
                    db.put("k" + i, value(round, i));
                }
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!mergeUnderWay() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(mergeUnderWay()).as("an automatic merge started").isTrue();

            db.put("after-the-merge-began", "v".getBytes(StandardCharsets.UTF_8));
            String active = newestDataFile();
            long written = watching.writtenEnd(active);
            deadline = System.nanoTime() + 5_000_000_000L;
            while (watching.forcedEnd(active) < written && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(mergeUnderWay()).as("the merge still runs").isTrue();
            assertThat(watching.forcedEnd(active)).as("forced end of %s, the merge still running", active)
                    .isGreaterThanOrEqualTo(written);
        }
    }

    private static byte[] value(int round, int i) {
        return Bytes.filled(VALUE, round * 31 + i);
    }

    /**
     * A merge writes its outputs as *.data.tmp files until it has copied everything. (A hint file is
     * written through a *.hint.tmp, which says nothing about a merge.)
     */
    private boolean mergeUnderWay() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(".data.tmp"));
        }
    }

    private String newestDataFile() throws Exception {
        List<Path> files = StoreFiles.dataFiles(dir);
        return files.get(files.size() - 1).getFileName().toString();
    }
}
