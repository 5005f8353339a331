package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.ChildJvm;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} of a child JVM whose writers are held at the space bound: its merges never finish, so
 * the writers are first delayed and then stopped, waiting outside every lock of the log. The kill comes
 * after the first put waited, while puts are delayed or stopped. After a reopen every acknowledged op of
 * every writer is there and each writer's one op in flight is there entirely or not at all, as in
 * {@link WriterCrashTest}, whose checks this shares; a stalled put had reserved nothing. Runs each sync
 * policy on each backend.
 */
class StallCrashTest {

    @TempDir
    Path tmp;

    static Stream<Arguments> runs() {
        long base = Seeds.base();
        SyncPolicy[] policies = SyncPolicy.values();
        return Backends.available().stream().flatMap(b -> IntStream.range(0, policies.length)
                .mapToObj(i -> Arguments.of(b, policies[i], base + i * 7919L)));
    }

    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("runs")
    @Timeout(300)
    void everyAcknowledgedWriteSurvivesAKillDuringAStall(Backend backend, SyncPolicy policy, long seed) throws Exception {
        Path dir = tmp.resolve("db");
        Random timing = new Random(seed);
        long[] lastAck = new long[WriterCrashWorkload.WRITERS];
        Arrays.fill(lastAck, -1);
        Process child = ChildJvm.start(StallCrashWorkload.class, dir.toString(), backend.name(), policy.name(), Long.toString(seed));
        try (BufferedReader out = ChildJvm.stdout(child)) {
            assertThat(out.readLine()).as("child start").isEqualTo("READY");
            for (String line; !"STALLED".equals(line = out.readLine()); ) {
                assertThat(line).as("the child exited before a put waited; see its stderr above").isNotNull();
                WriterCrashTest.ack(line, lastAck);
            }
            // Killed by the clock, not after so many lines as ChildJvm.killAfter does: stopped writers print nothing.
            long delayNanos = timing.nextInt(200) * 1_000_000L;
            Thread killer = new Thread(() -> {
                LockSupport.parkNanos(delayNanos);
                try {
                    ChildJvm.kill(child);
                } catch (Exception e) {
                    child.destroyForcibly();
                }
            });
            killer.start();
            for (String line; (line = out.readLine()) != null; ) {
                if (!WriterCrashTest.ack(line, lastAck) && !child.isAlive()) {
                    break; // half printed when the kill came: that op is the one in flight
                }
            }
            killer.join();
        } finally {
            child.destroyForcibly();
        }
        WriterCrashTest.verify(dir, backend, policy, seed, lastAck);
    }
}
