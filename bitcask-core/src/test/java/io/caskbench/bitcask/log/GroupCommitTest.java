package io.caskbench.bitcask.log;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.StoreStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link GroupCommit} against a fake log that counts its forces, can hold one open and can fail
 * one: callers share a force, a caller the force did not cover leads the next one, no caller
 * returns before a force that began after its records were appended, and a failed force fails
 * the store.
 */
class GroupCommitTest {

    private static final long WAIT_SECONDS = 30;

    private final FakeLog log = new FakeLog();
    private final StoreStatus status = new StoreStatus(Path.of("store"), false);
    private final GroupCommit commit = new GroupCommit(log, status, Path.of("store"));
    private final List<Caller> callers = new ArrayList<>();

    @AfterEach
    void releaseEveryCaller() throws InterruptedException {
        log.release();
        for (Caller c : callers) {
            c.thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
    }

    @Test
    void aCallerAloneForcesOnceAndAnLsnAlreadyDurableForcesNothing() {
        log.appended.set(10);
        commit.syncTo(10);
        commit.syncTo(5);
        commit.syncAll();

        assertThat(log.forces).hasSize(1);
        assertThat(commit.forces()).isEqualTo(1);
    }

    /**
     * A write that returned behind a copy still under way lies past the appended count: syncAll
     * must wait for that copy and force past it, even when the appended count is already durable.
     */
    @Test
    void syncAllWaitsForTheCopiesReservedBeforeItAndForcesPastThem() throws Exception {
        log.appended.set(10);
        commit.syncAll();
        log.copying.set(30); // reserved up to 40; a copy before 40 is still under way
        Caller sync = new Caller("sync", -1, commit::syncAll);
        callers.add(sync);
        sync.thread.start();
        awaitRunning(sync);
        assertThat(log.forces).as("no force while the reserved copies are under way").hasSize(1);

        log.copying.set(0);
        log.appended.set(40);

        sync.awaitSuccess();
        assertThat(log.forces).hasSize(2);
        assertThat(log.durable.get()).as("covered once syncAll returned").isEqualTo(40);
    }

    @Test
    void callersQueuedBehindALeaderAreCoveredByItsForceAndForceNothingThemselves() throws Exception {
        Caller leader = startHeldInItsForce("leader");
        List<Caller> waiters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            waiters.add(start("waiter-" + i, 10 - i));
        }
        for (Caller w : waiters) {
            awaitParked(w);
        }

        log.release();

        leader.awaitSuccess();
        for (Caller w : waiters) {
            w.awaitSuccess();
        }
        assertThat(log.forces).as("one force for the leader and every waiter it covered").hasSize(1);
    }

    @Test
    void aWaiterTheForceDidNotCoverLeadsTheNextForceAndIsNotWokenEarly() throws Exception {
        Caller first = startHeldInItsForce("first");
        log.appended.set(20); // appended while the first force runs: it does not cover these
        Caller second = start("second", 20);
        Caller third = start("third", 15);
        awaitParked(second);
        awaitParked(third);

        log.release();

        first.awaitSuccess();
        second.awaitSuccess();
        third.awaitSuccess();
        assertThat(log.forces).as("the first force, then one that the waiters shared").hasSize(2);
        assertThat(log.forces.get(0).thread()).isEqualTo("first");
        assertThat(log.forces.get(1).thread()).as("led by a waiter, not by the caller already covered").isIn("second", "third");
        for (Caller c : List.of(first, second, third)) {
            assertThat(c.returnedAfterCovering.get())
                    .as("%s returned only once a force that began after lsn %d ended", c.name, c.lsn)
                    .isGreaterThanOrEqualTo(c.lsn);
        }
    }

    @Test
    void aFailedForceFailsItsCallerItsWaitersAndEveryLaterWrite() throws Exception {
        log.failNextForce.set(true);
        Caller leader = startHeldInItsForce("leader");
        log.appended.set(20);
        Caller waiter = start("waiter", 20);
        awaitParked(waiter);

        log.release();

        assertThat(leader.awaitFailure()).isInstanceOf(BitCaskException.class).hasMessageContaining("injected");
        assertThat(waiter.awaitFailure()).isInstanceOf(BitCaskException.class).hasMessageContaining("refuses writes");
        assertThat(status.failed()).isTrue();
        int forcesAfterFailure = log.forces.size();
        log.appended.set(30);
        assertThatThrownBy(() -> commit.syncTo(30)).isInstanceOf(BitCaskException.class).hasMessageContaining("refuses writes");
        assertThatThrownBy(status::ensureWritable).isInstanceOf(BitCaskException.class);
        assertThat(log.forces).as("no force is tried once one failed").hasSize(forcesAfterFailure);
    }

    @Test
    void aWriteRacingCloseWaitsForClosesOwnForce() throws Exception {
        Caller racer = startRacingClose();

        commit.closed(true);

        racer.awaitSuccess();
        assertThat(log.forces).as("close forced, not the racing writer").isEmpty();
    }

    @Test
    void aWriteRacingACloseWhoseForceFailedIsToldItMayNotBeDurable() throws Exception {
        Caller racer = startRacingClose();

        commit.closed(false);

        assertThat(racer.awaitFailure()).isInstanceOf(BitCaskException.class).hasMessageContaining("may not be durable");
    }

    /** A caller of {@code syncTo(10)} with 10 bytes appended, leading a force the fake holds open. */
    private Caller startHeldInItsForce(String name) throws InterruptedException {
        log.appended.set(10);
        log.holdNextForce();
        Caller leader = start(name, 10);
        log.awaitForceHeld();
        return leader;
    }

    /** A caller whose records were appended just before close, parked until close's own force. */
    private Caller startRacingClose() throws InterruptedException {
        log.appended.set(10);
        status.markClosed();
        Caller racer = start("racer", 10);
        awaitParked(racer);
        return racer;
    }

    private Caller start(String name, long lsn) {
        Caller c = new Caller(name, lsn);
        callers.add(c);
        c.thread.start();
        return c;
    }

    /**
     * Gives {@code c}, which waits for copies by yielding rather than parking, time to go wrong,
     * and checks it has not returned.
     */
    private static void awaitRunning(Caller c) throws InterruptedException {
        Thread.sleep(100);
        assertThat(c.done.getCount()).as("%s returned while copies before it were under way", c.name).isEqualTo(1);
    }

    /** Waits until {@code c} parks: queued behind a leader, or waiting for close's force. */
    private static void awaitParked(Caller c) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (true) {
            Thread.State s = c.thread.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                return;
            }
            assertThat(s).as("%s ended before it parked", c.name).isNotEqualTo(Thread.State.TERMINATED);
            assertThat(System.nanoTime()).as("%s parks within %d s", c.name, WAIT_SECONDS).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    /** One force of the fake log: the appended count it covered and the thread that made it. */
    private record Force(long covered, String thread) {
    }

    /** A log whose appended count the test sets, and whose next force it may hold open or fail. */
    private static final class FakeLog implements GroupCommit.Log {
        final AtomicLong appended = new AtomicLong();
        /** Bytes reserved beyond {@code appended}: copies the test leaves under way. */
        final AtomicLong copying = new AtomicLong();
        /** The forces that ended, failed ones included, in order. */
        final List<Force> forces = new CopyOnWriteArrayList<>();
        /** The count covered by the forces that succeeded, highest so far. */
        final AtomicLong durable = new AtomicLong();
        final AtomicReference<Boolean> failNextForce = new AtomicReference<>(false);
        private volatile CountDownLatch held = new CountDownLatch(0);
        private volatile CountDownLatch entered = new CountDownLatch(0);

        void holdNextForce() {
            entered = new CountDownLatch(1);
            held = new CountDownLatch(1);
        }

        void awaitForceHeld() throws InterruptedException {
            assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("a force began").isTrue();
        }

        void release() {
            held.countDown();
        }

        @Override
        public long appended() {
            return appended.get();
        }

        @Override
        public long reserved() {
            return appended.get() + copying.get();
        }

        @Override
        public long forceAppended() {
            long covered = appended.get();
            entered.countDown();
            try {
                if (!held.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released the force");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            forces.add(new Force(covered, Thread.currentThread().getName()));
            if (failNextForce.getAndSet(false)) {
                throw new BitCaskException("injected force failure");
            }
            durable.accumulateAndGet(covered, Math::max);
            return covered;
        }

        @Override
        public long activeSegmentId() {
            return 1;
        }
    }

    /** A thread calling {@code syncTo(lsn)} once; it notes what the fake had made durable when it returned. */
    private final class Caller {
        final String name;
        final long lsn;
        final Thread thread;
        final AtomicLong returnedAfterCovering = new AtomicLong(-1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CountDownLatch done = new CountDownLatch(1);

        Caller(String name, long lsn) {
            this(name, lsn, () -> commit.syncTo(lsn));
        }

        Caller(String name, long lsn, Runnable sync) {
            this.name = name;
            this.lsn = lsn;
            this.thread = new Thread(() -> {
                try {
                    sync.run();
                    returnedAfterCovering.set(status.closed() ? lsn : log.durable.get());
                } catch (Throwable t) {
                    failure.set(t);
                } finally {
                    done.countDown();
                }
            }, name);
            thread.setDaemon(true);
        }

        void awaitSuccess() throws InterruptedException {
            assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("%s returned", name).isTrue();
            assertThat(failure.get()).as("%s failed", name).isNull();
        }

        Throwable awaitFailure() throws InterruptedException {
            assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("%s returned", name).isTrue();
            assertThat(failure.get()).as("%s failed", name).isNotNull();
            return failure.get();
        }
    }
}
