package io.caskbench.bitcask.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Frequency;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * Threading: one instance per stall, begun and committed on the store's debt daemon.
 *
 * <p>The JFR event of a write stall: a stretch of time during which the store's data lay past its soft
 * limit, so puts and batches were delayed, or past its hard limit, so they waited, until merges brought it
 * back under. Its duration is the stretch's; its figures are those of the worst moment.
 */
@Name("io.caskbench.bitcask.WriteStall")
@Label("BitCask Write Stall")
@Category("BitCask")
@Description("Puts were delayed or stopped because merges fell behind the store's space bound")
@StackTrace(false)
public final class WriteStallEvent extends Event {

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** True when the data reached the hard limit and puts waited; false when they were only delayed. */
    @Label("Stopped")
    @Description("True when the data reached the hard limit and puts waited for a merge; false when they were only delayed")
    public boolean stopped;

    /** Puts and batches that were delayed or waited during the stall. */
    @Label("Stalled Puts")
    @Description("Puts and batches that were delayed or waited during the stall")
    public long stalledPuts;

    /** Their time delayed or waiting, all of them together. */
    @Label("Stall Time")
    @Description("The time those puts and batches were delayed or waited, all of them together")
    @Timespan(Timespan.MILLISECONDS)
    public long stallMillis;

    /** Data bytes at the worst moment. */
    @Label("Data Bytes")
    @Description("Bytes of every record in the segments, live or dead, at the worst moment of the stall")
    @DataAmount(DataAmount.BYTES)
    public long dataBytes;

    /** Live bytes then. */
    @Label("Live Bytes")
    @Description("Bytes of the records that were current values, at the worst moment")
    @DataAmount(DataAmount.BYTES)
    public long liveBytes;

    /** The soft limit then. */
    @Label("Soft Limit")
    @Description("Data bytes past which puts are delayed, at the worst moment")
    @DataAmount(DataAmount.BYTES)
    public long softLimitBytes;

    /** The hard limit then: the bound. */
    @Label("Hard Limit")
    @Description("Data bytes past which puts wait: the store's space bound, at the worst moment")
    @DataAmount(DataAmount.BYTES)
    public long hardLimitBytes;

    /** The merge debt then. */
    @Label("Merge Debt")
    @Description("Data bytes over the level where automatic merges start, at the worst moment")
    @DataAmount(DataAmount.BYTES)
    public long mergeDebtBytes;

    /** The lowest rate puts were let through at while delayed. */
    @Label("Lowest Write Rate")
    @Description("The lowest rate, in record bytes per second, that delayed puts were let through at")
    @DataAmount(DataAmount.BYTES)
    @Frequency
    public long lowestWriteRate;

    /** A write stall event, not yet begun. */
    public WriteStallEvent() {
    }
}
