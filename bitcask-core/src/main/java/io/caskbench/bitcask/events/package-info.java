/**
 * The store's JDK Flight Recorder events: open, segment rollover, force, merge, hint write, a write
 * refused after a failed force, a write stall, and slow gets and puts. Each part of the engine emits
 * its own event; this package is a leaf that imports nothing of the store, so every layer may use it.
 *
 * <p>Every event is named {@code io.caskbench.bitcask.*}, sits in the category "BitCask" and carries
 * the store's directory in its {@code store} field. The rare ones (open, rollover, force, merge, hint
 * write, refused write, write stall) are enabled by default whenever a recording runs and cost an
 * object and two clock reads per occurrence. The slow-operation events are disabled by default: while
 * they are, a get or a put pays one call that returns false, and neither allocates nor reads the clock.
 * {@code bitcask.jfc}, beside these classes, enables them all with a 10 ms threshold for slow ones.
 */
package io.caskbench.bitcask.events;
