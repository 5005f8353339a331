/**
 * What watching the store costs: its JFR events with no recording, under the JDK's default
 * recording, and with the store's own settings that time every get and put.
 */
package io.caskbench.bench.events;
