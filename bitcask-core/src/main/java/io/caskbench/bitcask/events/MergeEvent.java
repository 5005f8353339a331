package io.caskbench.bitcask.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * Threading: one instance per merge, on the merging thread.
 *
 * <p>The JFR event of a merge: what it read and wrote, and how long it rested so that the gets and
 * puts beside it kept their latency.
 */
@Name("io.caskbench.bitcask.Merge")
@Label("BitCask Merge")
@Category("BitCask")
@Description("Live records of sealed segments were copied into new segments and the old ones deleted")
@StackTrace(false)
public final class MergeEvent extends Event {

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** Segments merged away. */
    @Label("Inputs")
    @Description("Segments merged away")
    public int inputs;

    /** Segments written. */
    @Label("Outputs")
    @Description("Segments written by the merge")
    public int outputs;

    /** Bytes the merge read from its inputs: their live records and the tombstones it looked at. */
    @Label("Bytes Read")
    @Description("Bytes read from the segments merged away: their live records and tombstones, not their dead records")
    @DataAmount(DataAmount.BYTES)
    public long bytesRead;

    /** Data bytes of the outputs. */
    @Label("Bytes Written")
    @Description("Data bytes of the segments written")
    @DataAmount(DataAmount.BYTES)
    public long bytesWritten;

    /** Live records copied. */
    @Label("Records Copied")
    @Description("Live records copied into the new segments and pointed at by the key directory")
    public long recordsCopied;

    /** Time the merge rested so the foreground kept its latency. */
    @Label("Rested")
    @Description("Of the duration, how long the merge rested between copying slices because gets and puts ran slower while it copied")
    @Timespan(Timespan.MILLISECONDS)
    public long restedMillis;

    /** Null, or why the merge failed. */
    @Label("Failure")
    @Description("Why the merge failed, or null when it completed")
    public String failure;

    /** A merge event, not yet begun. */
    public MergeEvent() {
    }
}
