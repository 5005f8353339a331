package io.caskbench.bitcask.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * Threading: any thread that was refused.
 *
 * <p>The JFR event of a write refused because a force failed earlier: the store takes no more
 * writes until it is reopened. Its stack trace shows the caller.
 */
@Name("io.caskbench.bitcask.WriteRefused")
@Label("BitCask Write Refused")
@Category("BitCask")
@Description("A write was refused because a force failed earlier; the store must be reopened")
public final class WriteRefusedEvent extends Event {

    /** The store's directory. */
    @Label("Store")
    @Description("The store's directory")
    public String store;

    /** The failure of the force that made the store refuse writes. */
    @Label("Force Failure")
    @Description("The message of the failed force that made the store refuse writes")
    public String forceFailure;

    /** A refused write event. */
    public WriteRefusedEvent() {
    }
}
