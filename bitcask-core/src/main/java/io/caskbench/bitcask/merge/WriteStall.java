package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.Threads;
import io.caskbench.bitcask.log.WriteLimit;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Threading: {@link #engaged} from any thread without a lock, one volatile read; {@link #admit} and
 * {@link #reached} on writing threads, which wait here before they take the write lock, never under it;
 * {@link #update} on the debt daemon; {@link #merged} on the merging thread; {@link #close} on the closing
 * thread. The stage is volatile and the counters are striped; everything else is guarded by {@code lock}.
 *
 * <p>Backpressure from merge debt: writes slow down to what merges can take back, so that the store's
 * data stays within its {@link SpaceBound}. The debt daemon hands it the store's figures every few
 * milliseconds ({@link #update}); from them it sets the stage that puts read, and the {@link WriteLimit}
 * that the log writer checks each reservation against.
 *
 * <ul>
 *   <li>Under the soft limit ({@link #NONE}) a put reads the stage and goes on.</li>
 *   <li>Past it ({@link #DELAY}) each put and batch takes its record bytes from a token bucket before it
 *       reserves: a schedule that lets bytes through at the delayed write rate, and the put waits until its
 *       turn. The rate is what the last merges reclaimed per second of their copying (16 MiB/s before the
 *       first), all of it at the soft limit and down to a quarter at the hard limit, never under 64 KiB/s:
 *       writes then make garbage no faster than merges remove it.</li>
 *   <li>Past the hard limit ({@link #STOP}), or once the log writer refused a write at the limit, puts and
 *       batches wait until a merge brings the data back under it, up to the timeout, which throws
 *       {@link BitCaskException} with the figures.</li>
 * </ul>
 *
 * <p>Deletes and merges never wait here: they are how the store gets back under its bound. A closed or
 * failed store lets every waiter go, to meet the store's own refusal.
 */
public final class WriteStall {

    /** Stage: under the soft limit; writes go on. */
    public static final int NONE = 0;
    /** Stage: past the soft limit; writes are delayed to the delayed write rate. */
    public static final int DELAY = 1;
    /** Stage: at the hard limit; writes wait for a merge. */
    public static final int STOP = 2;
    /** The delayed write rate before any merge was measured, bytes per second: RocksDB's default. */
    public static final long INITIAL_RATE = 16L << 20;
    /** The delayed write rate never drops below this, bytes per second: a stall must end even if merges reclaim nothing. */
    public static final long MIN_RATE = 64L << 10;
    /** At the hard limit, the delayed write rate is this share of the reclaim rate. */
    public static final double DEEPEST_SHARE = 0.25;
    /** The merges whose reclaim rate is averaged. */
    public static final int WINDOW = 4;
    /** Unused time the token bucket lets writes catch up on: a write that overslept does not slow the next. */
    static final long BURST_NANOS = 1_000_000;
    /** A waiter looks at the store's status at least this often. */
    static final long LONGEST_WAIT_NANOS = 100_000_000;

    /** Pauses a waiting writer, under {@code lock}, until woken or {@code nanos} have passed. */
    @FunctionalInterface
    public interface Pause {
        /** Pauses for at most {@code nanos}. */
        void pause(long nanos);
    }

    /** Final, safe everywhere. */
    private final SpaceBound bound;
    /** The log writer's limit, set here; final, safe everywhere. */
    private final WriteLimit limit;
    /** How long a write waits at the hard limit before it throws; final. */
    private final long timeoutNanos;
    /** The store's directory, for the messages and events; final. */
    private final String store;
    /** True once the store failed or is closing: waiters leave; final, safe everywhere. */
    private final BooleanSupplier stopped;
    /** The log's reserved end now; final, safe everywhere. */
    private final LongSupplier reserved;
    /** Runs a round of the debt daemon on the calling thread, unless one ran just now; final, safe everywhere. */
    private final Runnable refresh;
    /** Nanosecond clock; final. */
    private final LongSupplier clock;
    /** Final. */
    private final Pause pause;
    /** Guards everything below but the stage and the counters. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when the stage drops or the stall closes. */
    private final Condition changed = lock.newCondition();
    /** The stage; any thread reads, written under {@code lock}. */
    private volatile int stage = NONE;
    /** Writes that waited, once each; any thread adds. */
    private final LongAdder stalled = new LongAdder();
    /** Their time waited; any thread adds. */
    private final LongAdder stallNanos = new LongAdder();
    /** The debt at the last update; any thread reads. */
    private volatile long debtBytes;
    /** The figures at the last update, null before the first. */
    private SpaceBound.Level last;
    /** When the token bucket lets the next bytes through, on {@code clock}. */
    private long nextFree;
    /** The delayed write rate now, bytes per second. */
    private long rate = INITIAL_RATE;
    /** Bytes the last merges reclaimed, a ring of {@link #WINDOW}. */
    private final long[] reclaimed = new long[WINDOW];
    /** Nanoseconds they copied, the same ring. */
    private final long[] copyNanos = new long[WINDOW];
    /** Merges measured so far. */
    private long merges;
    /** The largest write the log writer refused since the stage last left {@link #STOP}. */
    private long refusedBytes;
    /** True once closed. */
    private boolean closed;
    /** The stall under way, as its event tells it. */
    private final StallPeriod period;

    /**
     * The stall of the store {@code store} against {@code bound}, which sets {@code limit}; writes wait at
     * the hard limit for up to {@code timeoutNanos}, and leave once {@code stopped} says the store failed
     * or closes. A write the log writer refused first has {@code refresh} run a round of the debt daemon,
     * and compares the limit with the log's {@code reserved} end.
     */
    public WriteStall(SpaceBound bound, WriteLimit limit, long timeoutNanos, String store, BooleanSupplier stopped,
                      LongSupplier reserved, Runnable refresh) {
        this(bound, limit, timeoutNanos, store, stopped, reserved, refresh, System::nanoTime, null);
    }

    /** A stall with its clock and its pause given; a null pause waits on the stall's condition. For tests. */
    WriteStall(SpaceBound bound, WriteLimit limit, long timeoutNanos, String store, BooleanSupplier stopped,
               LongSupplier reserved, Runnable refresh, LongSupplier clock, Pause pause) {
        this.bound = bound;
        this.limit = limit;
        this.timeoutNanos = timeoutNanos;
        this.store = store;
        this.stopped = stopped;
        this.reserved = reserved;
        this.refresh = refresh;
        this.clock = clock;
        this.pause = pause != null ? pause : nanos -> Threads.uninterruptibly(() -> changed.awaitNanos(nanos));
        this.period = new StallPeriod(store);
        this.nextFree = clock.getAsLong();
    }

    /** True while writes are delayed or stopped: the one read a put makes while the store is under its soft limit. */
    public boolean engaged() {
        return stage != NONE;
    }

    /** The stage now: {@link #NONE}, {@link #DELAY} or {@link #STOP}. */
    public int stage() {
        return stage;
    }

    /** True while a merge may rest for the foreground: under the soft limit. */
    public boolean restAllowed() {
        return stage == NONE;
    }

    /**
     * Lets a write of {@code bytes} record bytes through once the stage allows: at once under the soft
     * limit, at its turn of the delayed rate past it, once a merge made room past the hard limit.
     * {@code since} is when this write began to wait (0 when it has not), carried over its retries;
     * returns it.
     *
     * @throws BitCaskException when the write waited at the hard limit for longer than the timeout
     */
    public long admit(int bytes, long since) {
        lock.lock();
        try {
            boolean charged = false;
            long until = 0;
            while (!released()) {
                long now = clock.getAsLong();
                if (stage == STOP) {
                    if (since == 0) {
                        since = start(now);
                    }
                    long waited = now - since;
                    if (waited >= timeoutNanos) {
                        throw timeout(waited);
                    }
                    await(Math.min(timeoutNanos - waited, LONGEST_WAIT_NANOS));
                    continue;
                }
                if (!charged) {
                    charged = true;
                    nextFree = Math.max(nextFree, now - BURST_NANOS) + (long) (bytes * 1e9 / rate);
                    until = nextFree;
                }
                if (now - until >= 0) {
                    break;
                }
                if (since == 0) {
                    since = start(now);
                }
                await(until - now);
            }
            return since;
        } finally {
            lock.unlock();
        }
    }

    /**
     * After the log writer refused a write of {@code bytes} at its limit: first has the figures summed
     * afresh, since the limit may be a round old while the live bytes grew (a store filling with new keys);
     * when they leave room for the write, returns at once for it to try again. Else stops writes until a
     * round finds room for it, and waits as {@link #admit} does.
     */
    public long reached(int bytes, long since) {
        refresh.run(); // outside the lock: the round takes it to update
        lock.lock();
        try {
            if (limit.get() - reserved.getAsLong() >= bytes) {
                return since;
            }
            refusedBytes = Math.max(refusedBytes, bytes);
            if (!closed && !stopped.getAsBoolean()) {
                if (stage == NONE && last != null) {
                    period.observe(STOP, last, rate, stalled.sum(), stallNanos.sum()); // the stall begins with this write
                }
                stage = STOP;
            }
            return admit(bytes, since);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the store's figures: {@code reserved} log bytes reserved when the sums began, {@code live} and
     * {@code data} bytes of its segments. Sets the stage, the limit and the delayed rate from them, and
     * wakes the waiters when the stage drops. Returns where the store stands.
     */
    public SpaceBound.Level update(long reserved, long live, long data) {
        SpaceBound.Level level = bound.level(live, data);
        lock.lock();
        try {
            last = level;
            debtBytes = level.debt();
            if (closed || !bound.bounded()) {
                return level;
            }
            long room = level.hard() - level.data();
            limit.set(room > Long.MAX_VALUE - reserved ? Long.MAX_VALUE : reserved + room);
            int next;
            if (level.overHard() || (stage == STOP && room < refusedBytes)) {
                next = STOP;
            } else {
                next = level.overSoft() ? DELAY : NONE;
            }
            rate = delayedRate(level);
            if (next != STOP) {
                refusedBytes = 0;
            }
            if (next < stage) {
                changed.signalAll();
            }
            if (next == NONE) {
                nextFree = Math.min(nextFree, clock.getAsLong()); // a backlog of delays ends with the stall
            }
            stage = next;
            period.observe(next, level, rate, stalled.sum(), stallNanos.sum());
            return level;
        } finally {
            lock.unlock();
        }
    }

    /** Notes a merge that reclaimed {@code bytes} in {@code nanos} of copying (its rests left out). */
    public void merged(long bytes, long nanos) {
        if (nanos <= 0) {
            return;
        }
        lock.lock();
        try {
            int at = (int) (merges++ % WINDOW);
            reclaimed[at] = Math.max(0, bytes);
            copyNanos[at] = nanos;
        } finally {
            lock.unlock();
        }
    }

    /** Lets every waiter go and lifts the limit for good: the store is closing. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            limit.set(Long.MAX_VALUE);
            stage = NONE;
            changed.signalAll();
            period.end(stalled.sum(), stallNanos.sum());
        } finally {
            lock.unlock();
        }
    }

    /** Writes that were delayed or waited, each counted once. */
    public long stalledWrites() {
        return stalled.sum();
    }

    /** Their time delayed or waiting, all together, in nanoseconds. */
    public long stallNanos() {
        return stallNanos.sum();
    }

    /** Data bytes over the level where automatic merges start, at the last update. */
    public long debtBytes() {
        return debtBytes;
    }

    /** The delayed write rate now, bytes per second. */
    public long delayedRate() {
        lock.lock();
        try {
            return rate;
        } finally {
            lock.unlock();
        }
    }

    /**
     * What merges reclaimed per second of copying lately, or {@link #INITIAL_RATE} before any; scaled from
     * all of it at the soft limit down to {@link #DEEPEST_SHARE} at the hard limit; at least {@link #MIN_RATE}.
     */
    private long delayedRate(SpaceBound.Level level) {
        double scaled = reclaimRate() * (1 - (1 - DEEPEST_SHARE) * level.depth());
        return Math.max(MIN_RATE, (long) scaled);
    }

    /** Bytes the last {@link #WINDOW} merges reclaimed per second of their copying; {@link #INITIAL_RATE} before any. */
    private double reclaimRate() {
        if (merges == 0) {
            return INITIAL_RATE;
        }
        long bytes = 0;
        long nanos = 0;
        for (int i = 0; i < Math.min(merges, WINDOW); i++) {
            bytes += reclaimed[i];
            nanos += copyNanos[i];
        }
        return bytes * 1e9 / nanos;
    }

    /** True when writes go on without waiting: under the soft limit, or the store is closed, closing or failed. */
    private boolean released() {
        return stage == NONE || closed || stopped.getAsBoolean();
    }

    /** Counts a write that begins to wait at {@code now}; returns {@code now}, never 0. */
    private long start(long now) {
        stalled.increment();
        return now == 0 ? 1 : now;
    }

    /** Pauses for up to {@code nanos}, counting the time. */
    private void await(long nanos) {
        long before = clock.getAsLong();
        pause.pause(nanos);
        stallNanos.add(Math.max(0, clock.getAsLong() - before));
    }

    private BitCaskException timeout(long waitedNanos) {
        SpaceBound.Level l = last;
        String figures = l == null ? "" : String.format(Locale.ROOT,
                ": its segments hold %,d data bytes for %,d live bytes, and the bound is %,d bytes"
                        + " (maxSpaceAmplification %.2f times the live bytes, plus one %,d-byte segment)",
                l.data(), l.live(), l.hard(), bound.maxAmplification(), bound.slack());
        String merged = merges == 0 ? "no merge has completed since the store was opened"
                : String.format(Locale.ROOT, "the last merges reclaimed %,d bytes per second", (long) reclaimRate());
        return new BitCaskException(String.format(Locale.ROOT,
                "a write to %s waited %,d ms (writeStallTimeout) for merges to bring the store back under its space"
                        + " bound%s; %s. Nothing was written. Look in the log for failing merges, or raise"
                        + " maxSpaceAmplification or writeStallTimeout",
                store, waitedNanos / 1_000_000, figures, merged));
    }
}
