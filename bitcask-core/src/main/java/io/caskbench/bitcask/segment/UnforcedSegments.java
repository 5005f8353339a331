package io.caskbench.bitcask.segment;

import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentBackend;

import java.util.Collection;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Threading: any thread; the queue is lock-free, and a segment is forced inside the reader gate,
 * so that a merge cannot unmap it meanwhile.
 *
 * <p>Sealed segments not yet forced, oldest first. The group commit, close and merge force them,
 * always oldest first, so that a power loss keeps a prefix of the log.
 */
public final class UnforcedSegments {

    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final ReaderGate gate;
    /** Final, safe everywhere. */
    private final SegmentBackend backend;
    /** Sealed segments not yet forced, oldest first; any thread. */
    private final ConcurrentLinkedQueue<Segment> queue = new ConcurrentLinkedQueue<>();

    /** An empty queue for segments of {@code table}. */
    public UnforcedSegments(SegmentTable table, ReaderGate gate, SegmentBackend backend) {
        this.table = table;
        this.gate = gate;
        this.backend = backend;
    }

    /** Adds a segment just sealed, or loaded at open without being known durable. */
    public void add(Segment seg) {
        queue.add(seg);
    }

    /** Drops segments that a merge retires: nothing of theirs needs a force any more. */
    public void removeAll(Collection<Segment> segments) {
        queue.removeAll(segments);
    }

    /** Forces every sealed segment not yet durable; inside the gate, so a merge cannot unmap one meanwhile. */
    public void forceAll() {
        if (queue.isEmpty()) {
            return;
        }
        int token = gate.enter();
        try {
            for (Segment seg; (seg = queue.peek()) != null; ) {
                if (table.at(seg.slot()) == seg && !seg.durable()) {
                    seg.force(backend);
                }
                queue.remove(seg);
            }
        } finally {
            gate.exit(token);
        }
    }

    /**
     * Forces the segment that was active when the group-commit leader read it; the caller marks
     * it durable once the directory is forced too. Inside the gate, like the sealed ones: a merge
     * may seal and retire that segment meanwhile, and must not close it under the force. One that
     * is no longer in the table was retired by a merge, which forced it before it copied from it,
     * so it is passed over.
     */
    public void forceActive(Segment seg) {
        int token = gate.enter();
        try {
            if (table.at(seg.slot()) == seg) {
                seg.writer().force();
            }
        } finally {
            gate.exit(token);
        }
    }
}
