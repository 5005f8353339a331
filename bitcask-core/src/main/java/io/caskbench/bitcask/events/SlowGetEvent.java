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
 * Threading: one instance per timed get, on the reading thread; {@link #start} from any thread.
 *
 * <p>The JFR event of a get that took longer than the recording's threshold. Disabled by default;
 * while it is, {@link #start} returns null without allocating or reading the clock.
 */
@Name("io.caskbench.bitcask.SlowGet")
@Label("BitCask Slow Get")
@Category("BitCask")
@Description("A get that took longer than the threshold, measured from the call's start to its return")
@Enabled(false)
@Threshold("10 ms")
public final class SlowGetEvent extends Event {

    /** Asked whether the event type is enabled; its own fields are never set. */
    private static final SlowGetEvent PROBE = new SlowGetEvent();

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** Length of the key. */
    @Label("Key Length")
    @Description("Length of the key read")
    @DataAmount(DataAmount.BYTES)
    public int keyLength;

    /** Length of the value returned, -1 when the key had none. */
    @Label("Value Length")
    @Description("Length of the value returned, -1 when the key had no value")
    @DataAmount(DataAmount.BYTES)
    public int valueLength;

    /** A slow get event, not yet begun. */
    public SlowGetEvent() {
    }

    /** A begun event when a recording enables slow gets, else null (no allocation, no clock). */
    public static SlowGetEvent start() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        SlowGetEvent e = new SlowGetEvent();
        e.begin();
        return e;
    }

    /** Ends {@code e} (null does nothing) and commits it when it passed the threshold. */
    public static void finish(SlowGetEvent e, String store, int keyLength, byte[] value) {
        if (e == null) {
            return;
        }
        e.end();
        if (e.shouldCommit()) {
            e.store = store;
            e.keyLength = keyLength;
            e.valueLength = value == null ? -1 : value.length;
            e.commit();
        }
    }
}
