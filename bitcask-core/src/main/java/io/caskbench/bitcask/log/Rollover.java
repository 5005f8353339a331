package io.caskbench.bitcask.log;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.events.RolloverEvent;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.segment.HintWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.UnforcedSegments;

/**
 * Threading: the writer thread, inside a way into the {@link WriteProtocol} (under the write lock);
 * or the log writer's constructor, before any other thread sees it.
 *
 * <p>The log's rollover: seals a full active segment and opens the next one, and hands out the ids
 * of new segments, the gap a merge reserves for its outputs included. The log writer decides when
 * (a record that does not fit) and keeps the active segment; this does what a rollover does to the
 * files: cut and seal the old segment once every copy into it has finished, create the next, force
 * both under {@code ALWAYS} or queue the old one for the next force otherwise, and queue its hint.
 */
final class Rollover {

    /** Final, safe everywhere. */
    private final StoreDirectory dir;
    /** Final, safe everywhere. */
    private final StoreStatus status;
    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final UnforcedSegments unforced;
    /** Final, safe everywhere. */
    private final HintWriter hints;
    /** The log writer's ranges still being copied; final, safe everywhere. */
    private final Reservations copies;
    /** Under {@code ALWAYS}: a sealed segment is forced before the write that needs the next one goes on. Final. */
    private final boolean syncAlways;
    /** Id of the next segment; writer thread, under the write lock. */
    private long nextId;

    /** The rollover of a log whose next new segment is {@code nextId}. */
    Rollover(StoreDirectory dir, StoreStatus status, SegmentTable table, UnforcedSegments unforced, HintWriter hints,
             Reservations copies, boolean syncAlways, long nextId) {
        this.dir = dir;
        this.status = status;
        this.table = table;
        this.unforced = unforced;
        this.hints = hints;
        this.copies = copies;
        this.syncAlways = syncAlways;
        this.nextId = nextId;
    }

    /**
     * Seals {@code old}, the active segment, at {@code end} once every copy into it has finished,
     * and returns the next segment, created. Under {@code ALWAYS} the sealed segment and the new
     * file's name are forced before the write that needs the new segment goes on; otherwise the
     * next sync, the interval, a merge or close forces both, and the sealed one's hint follows.
     */
    Segment next(Segment old, long end) {
        RolloverEvent event = new RolloverEvent();
        event.begin();
        copies.awaitCopied();
        old.writer().truncate(end);
        old.writer().sealed();
        if (syncAlways) {
            try {
                old.force(dir.backend());
            } catch (RuntimeException e) {
                throw status.fail(e);
            }
        }
        Segment created = table.create(nextId);
        nextId++;
        if (syncAlways) {
            try {
                dir.force();
            } catch (RuntimeException e) {
                throw status.fail(e);
            }
        } else {
            dir.changed();
            unforced.add(old);
        }
        hints.sealed(old);
        event.end();
        if (event.shouldCommit()) {
            event.store = dir.path().toString();
            event.sealedSegment = old.id();
            event.sealedBytes = old.end();
            event.newSegment = created.id();
            event.forced = syncAlways;
            event.commit();
        }
        return created;
    }

    /**
     * Reserves {@code count} ids for a merge's outputs and returns the first: they sort after every
     * segment there is and before every segment created from now on.
     */
    long reserveIds(int count) {
        long first = nextId;
        if (first + count + 1 > SegmentFiles.MAX_ID) {
            throw new BitCaskException("segment ids of " + dir + " are exhausted");
        }
        nextId += count;
        return first;
    }
}
