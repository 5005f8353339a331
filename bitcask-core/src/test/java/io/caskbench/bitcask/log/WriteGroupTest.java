package io.caskbench.bitcask.log;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.caskbench.bitcask.testing.Parking.awaitParked;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The write group against a fake writer: a leader writes for the members queued behind it, each
 * member is written once, leaders never overlap, a writer that takes part of a group leaves the
 * rest to the next leader, and a failure reaches every member it was given to.
 */
class WriteGroupTest {

    /** Threads of their own: the common pool may have a single thread on a small machine. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    /** A fake writer: places each member it takes at the next count, and notes each group. */
    private static final class Recorder implements WriteGroup.Writer {
        final List<List<WriteGroup.Member>> groups = new ArrayList<>();
        final List<Thread> leaders = new ArrayList<>();
        final AtomicBoolean twice = new AtomicBoolean();
        volatile boolean onlyFirst;
        volatile CountDownLatch hold;
        final CountDownLatch holding = new CountDownLatch(1);
        long next;

        @Override
        public WriteGroup.Member write(WriteGroup.Member first, WriteGroup.Member last) {
            CountDownLatch h = hold;
            if (h != null) {
                hold = null;
                holding.countDown();
                await(h);
            }
            WriteGroup.Member end = onlyFirst ? first : last;
            List<WriteGroup.Member> group = new ArrayList<>();
            for (WriteGroup.Member m = first; ; m = m.newer) {
                twice.compareAndSet(false, m.lsn != 0);
                m.placed(null, 0, ++next);
                group.add(m);
                if (m == end) {
                    break;
                }
            }
            groups.add(group);
            leaders.add(Thread.currentThread());
            return end;
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(60, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts a thread that joins {@code group} with a member of {@code length} bytes; notes it and its member. */
    private CompletableFuture<WriteGroup.Member> join(WriteGroup group, int length, AtomicReference<Thread> thread) {
        return CompletableFuture.supplyAsync(() -> {
            thread.set(Thread.currentThread());
            WriteGroup.Member me = new WriteGroup.Member(new byte[length], length);
            group.join(me);
            return me;
        }, threads);
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theNextLeaderWritesEveryMemberThatQueuedMeanwhileInOneCall() throws Exception {
        Recorder writer = new Recorder();
        WriteGroup group = new WriteGroup(new WriteProtocol(), writer);
        CountDownLatch release = new CountDownLatch(1);
        writer.hold = release;
        AtomicReference<Thread> first = new AtomicReference<>();
        CompletableFuture<WriteGroup.Member> leader = join(group, 10, first);
        await(writer.holding); // the first group is taken: only the leader's own member
        int followers = 8;
        List<CompletableFuture<WriteGroup.Member>> queued = new ArrayList<>();
        List<AtomicReference<Thread>> queuedThreads = new ArrayList<>();
        for (int i = 0; i < followers; i++) {
            AtomicReference<Thread> t = new AtomicReference<>();
            queuedThreads.add(t);
            queued.add(join(group, 20 + i, t));
        }
        for (AtomicReference<Thread> t : queuedThreads) {
            awaitParked(t);
        }
        release.countDown();
        assertThat(leader.get(60, TimeUnit.SECONDS).lsn).isEqualTo(1);
        for (CompletableFuture<WriteGroup.Member> f : queued) {
            assertThat(f.get(60, TimeUnit.SECONDS).lsn).as("placed").isBetween(2L, 1L + followers);
            assertThat(f.get().failure).isNull();
        }
        assertThat(writer.groups).hasSize(2);
        assertThat(writer.groups.get(1)).as("the second group: every member queued behind the first").hasSize(followers);
        assertThat(writer.leaders.get(0)).isSameAs(first.get());
        assertThat(queuedThreads.stream().map(AtomicReference::get)).as("a follower led the second group")
                .contains(writer.leaders.get(1));
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyMemberIsWrittenOnceAndLeadersNeverOverlap() throws Exception {
        AtomicBoolean inside = new AtomicBoolean();
        AtomicBoolean overlapped = new AtomicBoolean();
        Recorder recorder = new Recorder();
        AtomicInteger calls = new AtomicInteger();
        WriteGroup group = new WriteGroup(new WriteProtocol(), (first, last) -> {
            overlapped.compareAndSet(false, !inside.compareAndSet(false, true));
            recorder.onlyFirst = calls.incrementAndGet() % 3 == 0; // now and then a group is cut short
            WriteGroup.Member end = recorder.write(first, last);
            inside.set(false);
            return end;
        });
        int perThread = 2000;
        CompletableFuture<?>[] puts = new CompletableFuture<?>[6];
        for (int t = 0; t < puts.length; t++) {
            puts[t] = CompletableFuture.runAsync(() -> {
                long lastLsn = 0;
                for (int i = 0; i < perThread; i++) {
                    WriteGroup.Member me = new WriteGroup.Member(new byte[8], 8);
                    group.join(me);
                    assertThat(me.lsn).as("a thread's later put is placed later").isGreaterThan(lastLsn);
                    lastLsn = me.lsn;
                }
            }, threads);
        }
        CompletableFuture.allOf(puts).get(60, TimeUnit.SECONDS);
        assertThat(overlapped).isFalse();
        assertThat(recorder.twice).as("a member written twice").isFalse();
        assertThat(recorder.next).isEqualTo((long) perThread * puts.length);
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWriterThatThrowsFailsTheMembersItLeftAndNobodyWaitsForEver() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        WriteGroup group = new WriteGroup(new WriteProtocol(), (first, last) -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("injected");
            }
            first.placed(null, 0, 1);
            return first;
        });
        WriteGroup.Member failed = new WriteGroup.Member(new byte[4], 4);
        group.join(failed);
        assertThatThrownBy(failed::throwIfFailed).hasMessage("injected");
        CompletableFuture<WriteGroup.Member> next = join(group, 4, new AtomicReference<>());
        assertThat(next.get(60, TimeUnit.SECONDS).failure).as("the group after a failure is written").isNull();
    }
}
