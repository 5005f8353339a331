package io.caskbench.raft.client;

import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.util.TimeDuration;

import java.util.concurrent.TimeUnit;

/**
 * Threading: safe everywhere; each calling thread has its own deadline.
 *
 * <p>Raft's client retry policy for {@link ReplicatedBitCask}: retries a failed attempt (a lost
 * leader, a refused connection, an attempt's timeout) after a short pause until the calling
 * thread's deadline, set around each blocking call. Raft's blocking client runs its retry loop in
 * the calling thread, which is what makes a per-thread deadline the deadline of one call.
 */
final class DeadlineRetry implements RetryPolicy {

    /** The pause between attempts. */
    private static final TimeDuration PAUSE = TimeDuration.valueOf(50, TimeUnit.MILLISECONDS);

    /** The current call's deadline in {@link System#nanoTime()} units; each thread its own. */
    private final ThreadLocal<long[]> deadline = ThreadLocal.withInitial(() -> new long[] {Long.MAX_VALUE});

    /** Sets the calling thread's deadline for its next call. */
    void startCall(long deadlineNanos) {
        deadline.get()[0] = deadlineNanos;
    }

    /** True when the calling thread's deadline has passed. */
    boolean expired() {
        return System.nanoTime() - deadline.get()[0] >= 0;
    }

    @Override
    public Action handleAttemptFailure(Event event) {
        long left = deadline.get()[0] - System.nanoTime();
        return left > PAUSE.toLong(TimeUnit.NANOSECONDS) ? () -> PAUSE : NO_RETRY_ACTION;
    }

    @Override
    public String toString() {
        return "retry every " + PAUSE + " until the call's deadline";
    }
}
