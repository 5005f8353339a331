package io.caskbench.bitcask.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * Threading: one instance per timed put, on the writing thread; {@link #start} from any thread.
 *
 * <p>The JFR event of a put that took longer than the recording's threshold, its wait for
 * durability under {@code ALWAYS} included. Disabled by default; while it is, {@link #start}
 * returns null without allocating or reading the clock.
 */
@Name("io.caskbench.bitcask.SlowPut")
@Label("BitCask Slow Put")
@Category("BitCask")
@Description("A put that took longer than the threshold, its wait for durability included")
@Enabled(false)
@Threshold("10 ms")
public final class SlowPutEvent extends Event {

    /** Asked whether the event type is enabled; its own fields are never set. */
    private static final SlowPutEvent PROBE = new SlowPutEvent();

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** Length of the key. */
    @Label("Key Length")
    @Description("Length of the key written")
    @DataAmount(DataAmount.BYTES)
    public int keyLength;

    /** Length of the value. */
    @Label("Value Length")
    @Description("Length of the value written")
    @DataAmount(DataAmount.BYTES)
    public int valueLength;

    /** A slow put event, not yet begun. */
    public SlowPutEvent() {
    }

    /** A begun event when a recording enables slow puts, else null (no allocation, no clock). */
    public static SlowPutEvent start() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        SlowPutEvent e = new SlowPutEvent();
        e.begin();
        return e;
    }

    /** Ends {@code e} (null does nothing) and commits it when it passed the threshold. */
    public static void finish(SlowPutEvent e, String store, int keyLength, int valueLength) {
        if (e == null) {
            return;
        }
        e.end();
        if (e.shouldCommit()) {
            e.store = store;
            e.keyLength = keyLength;
            e.valueLength = valueLength;
            e.commit();
        }
    }
}
