package io.caskbench.bitcask.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Threading: one instance per open, on the opening thread.
 *
 * <p>The JFR event of a store's open: how much recovery read and found, and how long it took.
 */
@Name("io.caskbench.bitcask.Open")
@Label("BitCask Open")
@Category("BitCask")
@Description("A store opened: recovery loaded its data files into the key directory")
@StackTrace(false)
public final class StoreOpenEvent extends Event {

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** Data files found. */
    @Label("Segments")
    @Description("Data files recovery found and loaded")
    public int segments;

    /** Keys loaded. */
    @Label("Keys")
    @Description("Live keys in the key directory once recovery was done")
    public long keys;

    /** Bytes of data files read record by record. */
    @Label("Bytes Scanned")
    @Description("Bytes of data files read record by record, because no usable hint file covered them")
    @DataAmount(DataAmount.BYTES)
    public long bytesScanned;

    /** Data files loaded from their hint files. */
    @Label("Hints Used")
    @Description("Data files whose keys were loaded from their hint files, wholly or up to a tail that was scanned")
    public int hintsUsed;

    /** An open event, not yet begun. */
    public StoreOpenEvent() {
    }
}
