package io.caskbench.bitcask.segment;

import io.caskbench.bitcask.events.HintWriteEvent;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.io.Threads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Threading: any thread queues work; the hints are written on this writer's own daemon thread,
 * by a merge on its thread, and by close after the daemon has stopped; the daemon's start and
 * stop are under {@code lock}.
 *
 * <p>Writes sealed segments' hint files off the put path: building one sorts and rescans a whole
 * segment, which cost about a fifth of single-threaded put time when the put after each rollover
 * did it. The daemon is created at the first rollover; a hint not written before a crash only
 * means a scan at the next open. A hint must never reach the disk before the records it lists, so
 * it waits for the force that sync, the interval, a merge or close makes anyway (under
 * {@code ALWAYS}, the rollover's): forcing a sealed segment here just for its hint cost a quarter
 * of MAPPED put throughput on two cores.
 */
public final class HintWriter {

    private static final Logger LOG = LoggerFactory.getLogger(HintWriter.class);

    /** Final, safe everywhere. */
    private final StoreDirectory dir;
    /** Final, safe everywhere. */
    private final StoreStatus status;
    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final ReaderGate gate;
    /** Guards the creation and the shutdown of the daemon. */
    private final Object lock = new Object();
    /** Sealed segments whose hint file is still to be written; any thread. */
    private final ConcurrentLinkedQueue<Segment> pending = new ConcurrentLinkedQueue<>();
    /** A task is queued on the daemon and has not started; any thread. */
    private final AtomicBoolean taskQueued = new AtomicBoolean();
    /** The daemon, created at the first rollover; under {@code lock}. */
    private ExecutorService daemon;

    /** A hint writer for the segments of {@code table}. */
    public HintWriter(StoreDirectory dir, StoreStatus status, SegmentTable table, ReaderGate gate) {
        this.dir = dir;
        this.status = status;
        this.table = table;
        this.gate = gate;
    }

    /** Queues the hint file of a segment just sealed. */
    public void sealed(Segment seg) {
        pending.add(seg);
    }

    /**
     * Takes the segments a merge is about to copy out of the queue and returns those that were in
     * it: writing a hint scans the whole segment, which the merge then deletes. The merge queues them
     * again ({@link #sealed}) if it fails before its swap. A hint the daemon is writing already is
     * finished.
     */
    public List<Segment> withhold(Collection<Segment> segments) {
        List<Segment> taken = new ArrayList<>();
        for (Segment seg : segments) {
            if (pending.remove(seg)) {
                taken.add(seg);
            }
        }
        return taken;
    }

    /** Drops segments that a merge retires. */
    public void removeAll(Collection<Segment> segments) {
        pending.removeAll(segments);
    }

    /**
     * Starts the daemon when the oldest sealed segment without a hint is durable, unless it is
     * already on its way; cheap when none is.
     */
    public void kick() {
        Segment next = pending.peek();
        if (next != null && next.durable() && taskQueued.compareAndSet(false, true)) {
            schedule();
        }
    }

    private void schedule() {
        synchronized (lock) {
            if (status.closing()) {
                taskQueued.set(false);
                return; // close writes them
            }
            if (daemon == null) {
                daemon = Executors.newSingleThreadExecutor(Threads.daemons("hints", dir.path()));
            }
            daemon.execute(() -> {
                taskQueued.set(false);
                writePending();
            });
        }
    }

    /** Stops the daemon and waits for a hint file it is writing. Close only. */
    public void stop() {
        ExecutorService d;
        synchronized (lock) {
            d = daemon;
        }
        if (d == null) {
            return;
        }
        d.shutdown();
        Threads.uninterruptibly(() -> {
            while (!d.awaitTermination(1, TimeUnit.MINUTES)) {
                LOG.warn("still waiting for the hint writer of {}", dir);
            }
        });
    }

    /**
     * Writes the hint files of sealed segments whose data is durable, oldest first; outside the log
     * writer's lock. A crash before a segment's force costs a scan at the next open, never a wrong hint.
     */
    public void writePending() {
        // Inside the gate before taking a segment: a merge makes its inputs unreachable (out of
        // this queue and the slot table) before it waits at the gate and unmaps them.
        int token = gate.enter();
        try {
            for (Segment seg; !status.closed() && !status.failed() && (seg = pending.peek()) != null; ) {
                if (table.at(seg.slot()) != seg) {
                    pending.remove(seg); // merged away meanwhile
                    continue;
                }
                if (!seg.durable()) {
                    return; // sealed segments are forced oldest first, so the rest wait too
                }
                pending.remove(seg);
                write(seg);
            }
        } finally {
            gate.exit(token);
        }
    }

    /**
     * Close only, after the daemon stopped and the active segment was forced: writes the hint of
     * the active segment and of every sealed one still queued.
     */
    public void writeAllOnClose(Segment active) {
        pending.add(active);
        for (Segment seg : new ArrayList<>(pending)) {
            write(seg);
        }
        pending.clear();
    }

    /**
     * Writes the hint file of a segment whose content up to its end will not change, and whose
     * data the caller forced first. A failure only costs a scan at the next open, so it is logged,
     * not thrown.
     */
    public void write(Segment seg) {
        HintWriteEvent event = new HintWriteEvent();
        event.begin();
        long end = seg.end();
        long written = 0;
        try {
            Path hintFile = SegmentFiles.hintFile(dir.path(), seg.id());
            // A reopened segment's earlier hint says which damaged batches were whole once (see HintScan).
            byte[] content = HintScan.build(new SegmentScanner(seg.reader(), seg.file(), end, seg.salt()), seg.id(), seg.salt(),
                    end, () -> dir.backend().readFile(hintFile));
            dir.backend().writeFile(hintFile, content);
            dir.changed();
            written = content.length;
            event.succeeded = true;
        } catch (RuntimeException e) {
            LOG.warn("cannot write hint file for {}: {}; open will scan it instead", seg.file(), e.toString());
        }
        event.end();
        if (event.shouldCommit()) {
            event.store = dir.path().toString();
            event.segment = seg.id();
            event.segmentBytes = end;
            event.hintBytes = written;
            event.commit();
        }
    }
}
