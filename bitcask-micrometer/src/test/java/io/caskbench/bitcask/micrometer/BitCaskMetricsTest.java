package io.caskbench.bitcask.micrometer;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskCounters;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The binder's meters against what a store did and what its stats say. */
class BitCaskMetricsTest {

    @TempDir
    Path tmp;

    private static double gauge(SimpleMeterRegistry r, String name) {
        return r.get(name).tag("store", "objects").gauge().value();
    }

    private static double counter(SimpleMeterRegistry r, String name) {
        return r.get(name).tag("store", "objects").functionCounter().count();
    }

    @Test
    void metersFollowTheStoreAndAreTaggedWithItsName() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // No automatic merge: the dead bytes and the merge count below are this script's own.
        BitCask db = BitCask.open(tmp.resolve("objects"), BitCaskOptions.builder().segmentSize(64 << 10).autoMerge(false).build());
        MergeResult merged;
        try {
            new BitCaskMetrics(db, "objects", List.of(Tag.of("service", "meta"))).bindTo(registry);
            assertThat(gauge(registry, "bitcask.keys")).isZero();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 1000; i++) {
                    db.put("k" + i, new byte[100]);
                }
            }
            db.get("k1");
            db.delete("k2");
            db.sync();

            BitCaskStats s = db.stats();
            assertThat(gauge(registry, "bitcask.keys")).isEqualTo(999);
            assertThat(gauge(registry, "bitcask.live")).isEqualTo(s.liveBytes());
            assertThat(gauge(registry, "bitcask.dead")).isEqualTo(s.deadBytes()).isPositive();
            // The hint writer may add a sealed segment's hint file at any moment, so the disk bytes only grow:
            // the gauge reads what stats() reads at its own moment.
            double diskBefore = gauge(registry, "bitcask.disk");
            long disk = db.stats().diskBytes();
            assertThat((double) disk).isBetween(diskBefore, gauge(registry, "bitcask.disk"));
            assertThat(gauge(registry, "bitcask.index")).isEqualTo(s.indexBytes()).isPositive();
            assertThat(gauge(registry, "bitcask.segments")).isEqualTo(s.segmentCount()).isGreaterThan(1);
            assertThat(counter(registry, "bitcask.puts")).isEqualTo(2000);
            assertThat(counter(registry, "bitcask.gets")).isEqualTo(1);
            assertThat(counter(registry, "bitcask.deletes")).isEqualTo(1);
            FunctionTimer forces = registry.get("bitcask.forces").tag("store", "objects").functionTimer();
            assertThat(forces.count()).isEqualTo(1);
            assertThat(forces.totalTime(TimeUnit.NANOSECONDS)).isPositive();

            merged = db.merge(MergeScope.ALL);
            FunctionTimer merges = registry.get("bitcask.merges").tags("store", "objects", "service", "meta").functionTimer();
            assertThat(merges.count()).isEqualTo(1);
            assertThat(merges.totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(counter(registry, "bitcask.merge.reclaimed")).isEqualTo(merged.bytesReclaimed());
            assertThat(counter(registry, "bitcask.refused.writes")).isZero();
            assertThat(gauge(registry, "bitcask.dead")).isZero();
        } finally {
            db.close();
        }
        assertThat(gauge(registry, "bitcask.keys")).as("closed").isNaN();
        assertThat(counter(registry, "bitcask.puts")).as("counts outlive close").isEqualTo(2000);
        FunctionTimer stalls = registry.get("bitcask.stalls").tag("store", "objects").functionTimer();
        assertThat(stalls.count()).as("never near the bound").isZero();
        assertThat(gauge(registry, "bitcask.merge.debt")).as("no automatic merge: no debt measured").isZero();
    }

    @Test
    @Timeout(300)
    void stalledPutsTheirTimeAndTheMergeDebtAreMetered() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // Merges copy a kilobyte a second: writers soon reach the bound, and a put waits there until it times out.
        BitCaskOptions o = BitCaskOptions.builder().segmentSize(64 << 10).autoMerge(true).maxSpaceAmplification(1.5)
                .mergeBytesPerSecond(1024).writeStallTimeout(Duration.ofMillis(100)).build();
        try (BitCask db = BitCask.open(tmp.resolve("objects"), o)) {
            new BitCaskMetrics(db, "objects").bindTo(registry);
            BitCaskException timedOut = null;
            for (int i = 0; timedOut == null; i++) {
                try {
                    db.put("k" + i % 1000, new byte[100]);
                } catch (BitCaskException e) {
                    timedOut = e;
                }
            }
            assertThat(timedOut).hasMessageContaining("space bound");
            BitCaskCounters c = db.counters();
            FunctionTimer stalls = registry.get("bitcask.stalls").tag("store", "objects").functionTimer();
            assertThat(stalls.count()).isEqualTo(c.stalledPuts()).isPositive();
            assertThat(stalls.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(c.stallTime().toNanos())
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
            assertThat(gauge(registry, "bitcask.merge.debt")).isEqualTo(db.counters().mergeDebtBytes()).isPositive();
        }
    }
}
