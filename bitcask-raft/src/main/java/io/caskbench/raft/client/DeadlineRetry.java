package io.caskbench.raft.client;

import org.apache.ratis.client.retry.ClientRetryEvent;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.util.TimeDuration;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Threading: safe everywhere; each calling thread has its own call.
 *
 * <p>Raft's client retry policy for {@link ReplicatedBitCask}: retries a failed attempt (a lost
 * leader, a refused connection, an attempt's timeout) after a short pause until the calling
 * thread's deadline, set around each blocking call. Raft's blocking client runs its retry loop in
 * the calling thread, which is what makes a per-thread deadline the deadline of one call.
 *
 * <p>It stops at once when a majority of the replicas refused the TLS handshake in this call:
 * certificates do not change between attempts, and without a majority that accepts this client
 * no leader can answer it. A refusal by a minority (a replica with a wrong certificate) is retried
 * like any failure, on another replica.
 */
final class DeadlineRetry implements RetryPolicy {

    /** The pause between attempts. */
    private static final TimeDuration PAUSE = TimeDuration.valueOf(50, TimeUnit.MILLISECONDS);

    /** How many replicas refusing TLS end a call: a majority of a group's. Final. */
    private final int majority;
    /** The current call of each thread; each thread touches only its own. */
    private final ThreadLocal<Call> call = ThreadLocal.withInitial(Call::new);

    /** One thread's call. */
    private static final class Call {
        /** The deadline in {@link System#nanoTime()} units. */
        long deadline = Long.MAX_VALUE;
        /** The replicas that refused the TLS handshake in this call, in order. */
        final Set<RaftPeerId> refusedTls = new LinkedHashSet<>();
        /** The first TLS failure of this call, or null. */
        Throwable tlsFailure;
    }

    /** A policy for groups of {@code replicas} replicas. */
    DeadlineRetry(int replicas) {
        this.majority = replicas / 2 + 1;
    }

    /** Starts the calling thread's next call, which gives up at {@code deadlineNanos}. */
    void startCall(long deadlineNanos) {
        Call c = call.get();
        c.deadline = deadlineNanos;
        c.refusedTls.clear();
        c.tlsFailure = null;
    }

    /** True when the calling thread's deadline has passed. */
    boolean expired() {
        return System.nanoTime() - call.get().deadline >= 0;
    }

    /** The TLS failure that ended the calling thread's call (a majority refused), or null when none did. */
    Throwable tlsRefusal() {
        Call c = call.get();
        return c.refusedTls.size() >= majority ? c.tlsFailure : null;
    }

    /** The replicas that refused the TLS handshake in the calling thread's call, in order, as text. */
    String refusedTls() {
        return call.get().refusedTls.toString();
    }

    @Override
    public Action handleAttemptFailure(Event event) {
        Call c = call.get();
        Throwable tls = TlsRefusedException.handshakeFailure(event.getCause());
        if (tls != null && event instanceof ClientRetryEvent e) {
            c.refusedTls.add(e.getRequest().getServerId());
            if (c.tlsFailure == null) {
                c.tlsFailure = tls;
            }
            if (c.refusedTls.size() >= majority) {
                return NO_RETRY_ACTION;
            }
        }
        long left = c.deadline - System.nanoTime();
        return left > PAUSE.toLong(TimeUnit.NANOSECONDS) ? () -> PAUSE : NO_RETRY_ACTION;
    }

    @Override
    public String toString() {
        return "retry every " + PAUSE + " until the call's deadline";
    }
}
