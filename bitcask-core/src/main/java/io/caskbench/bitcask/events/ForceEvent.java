package io.caskbench.bitcask.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Threading: one instance per force, on the group commit's leader.
 *
 * <p>The JFR event of a force made for durability ({@code sync()}, the interval's sync, or a
 * write under {@code ALWAYS}): what it covered and how many waiting writers it released.
 */
@Name("io.caskbench.bitcask.Force")
@Label("BitCask Force")
@Category("BitCask")
@Description("Records appended so far were forced to the storage device, for every writer waiting on them")
@StackTrace(false)
public final class ForceEvent extends Event {

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** Id of the active segment when the force began. */
    @Label("Segment")
    @Description("Id of the segment being appended to; sealed segments not yet forced were forced first")
    public long segment;

    /** Bytes of the log this force made durable. */
    @Label("Bytes Covered")
    @Description("Bytes appended since the previous force that this force made durable")
    @DataAmount(DataAmount.BYTES)
    public long bytesCovered;

    /** Other writers woken because this force covered their records. */
    @Label("Waiters Released")
    @Description("Writers parked in group commit that this force covered and woke, the leader not counted")
    public int waitersReleased;

    /** False when the force failed; the store then refuses writes until reopened. */
    @Label("Succeeded")
    @Description("False when the force failed: the store refuses writes from then on until it is reopened")
    public boolean succeeded;

    /** A force event, not yet begun. */
    public ForceEvent() {
    }
}
