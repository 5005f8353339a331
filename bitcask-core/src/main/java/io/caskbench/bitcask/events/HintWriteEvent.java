package io.caskbench.bitcask.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Threading: one instance per hint file, on the thread writing it.
 *
 * <p>The JFR event of a hint file written for a sealed segment, which lets the next open skip
 * scanning it.
 */
@Name("io.caskbench.bitcask.HintWrite")
@Label("BitCask Hint Write")
@Category("BitCask")
@Description("A sealed segment was scanned and its hint file written")
@StackTrace(false)
public final class HintWriteEvent extends Event {

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** Id of the segment. */
    @Label("Segment")
    @Description("Id of the segment the hint file describes")
    public long segment;

    /** Bytes of the segment scanned. */
    @Label("Segment Bytes")
    @Description("Bytes of the segment scanned to build the hint")
    @DataAmount(DataAmount.BYTES)
    public long segmentBytes;

    /** Bytes of the hint file. */
    @Label("Hint Bytes")
    @Description("Bytes of the hint file written")
    @DataAmount(DataAmount.BYTES)
    public long hintBytes;

    /** False when writing failed; the next open then scans the segment. */
    @Label("Succeeded")
    @Description("False when the hint could not be written: the next open scans the segment instead")
    public boolean succeeded;

    /** A hint write event, not yet begun. */
    public HintWriteEvent() {
    }
}
