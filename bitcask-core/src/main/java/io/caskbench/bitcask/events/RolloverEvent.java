package io.caskbench.bitcask.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Threading: one instance per rollover, on the writer holding the log writer's lock.
 *
 * <p>The JFR event of a segment rollover: the active segment was full, was sealed, and a new one
 * was created. Its duration includes the sealed segment's force under {@code ALWAYS}, which
 * writers wait for.
 */
@Name("io.caskbench.bitcask.Rollover")
@Label("BitCask Segment Rollover")
@Category("BitCask")
@Description("The active segment was full: it was sealed and the next one created")
@StackTrace(false)
public final class RolloverEvent extends Event {

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** Id of the sealed segment. */
    @Label("Sealed Segment")
    @Description("Id of the segment that was sealed")
    public long sealedSegment;

    /** Bytes in the sealed segment. */
    @Label("Sealed Bytes")
    @Description("Bytes of the sealed segment, its header included")
    @DataAmount(DataAmount.BYTES)
    public long sealedBytes;

    /** Id of the new active segment. */
    @Label("New Segment")
    @Description("Id of the segment created to take the writes")
    public long newSegment;

    /** Whether the sealed segment was forced before writes went on. */
    @Label("Forced")
    @Description("True when the sealed segment and the directory were forced before writes went on (sync policy ALWAYS)")
    public boolean forced;

    /** A rollover event, not yet begun. */
    public RolloverEvent() {
    }
}
