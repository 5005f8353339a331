package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ThreadGangTest {

    @Test
    void everyThreadRunsOncePerRunAndRunWaitsForAll() {
        try (ThreadGang gang = new ThreadGang(1000, "test-gang")) {
            AtomicLong ops = new AtomicLong();
            Set<Integer> seen = ConcurrentHashMap.newKeySet();
            for (int run = 0; run < 5; run++) {
                gang.run(t -> {
                    seen.add(t);
                    ops.addAndGet(10);
                });
                assertThat(ops.get()).isEqualTo((run + 1) * 10_000L);
            }
            assertThat(seen).hasSize(1000).contains(0, 999);
        }
    }

    @Test
    void aFailingThreadFailsTheRunAndTheGangStaysUsable() {
        try (ThreadGang gang = new ThreadGang(8, "test-gang")) {
            assertThatThrownBy(() -> gang.run(t -> {
                if (t == 3) {
                    throw new IllegalArgumentException("boom");
                }
            })).isInstanceOf(IllegalStateException.class).hasCauseInstanceOf(IllegalArgumentException.class);
            AtomicLong ops = new AtomicLong();
            gang.run(t -> ops.incrementAndGet());
            assertThat(ops.get()).isEqualTo(8);
        }
    }

    @Test
    void aRunPastItsLimitAsksTasksToStopAndReportsIt() {
        try (ThreadGang gang = new ThreadGang(4, "test-gang-limit")) {
            boolean finished = gang.run(t -> {
                while (!gang.stopRequested()) {
                    Thread.onSpinWait();
                }
            }, Duration.ofMillis(50));
            assertThat(finished).isFalse();
            assertThat(gang.run(t -> { }, Duration.ofSeconds(30))).isTrue();
            assertThat(gang.stopRequested()).isFalse();
        }
    }

    @Test
    void closeStopsTheThreads() {
        ThreadGang gang = new ThreadGang(4, "test-gang-close");
        gang.close();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("test-gang-close"));
        assertThatThrownBy(() -> gang.run(t -> { })).isInstanceOf(IllegalStateException.class);
    }
}
