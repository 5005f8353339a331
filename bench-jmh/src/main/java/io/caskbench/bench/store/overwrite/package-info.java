/**
 * The sustained-overwrite benchmark's parts: key draws (uniform and Zipfian), the stores under test and
 * their settings, the interval-by-interval load, the time series it writes and the amplification figures
 * computed from it.
 */
package io.caskbench.bench.store.overwrite;
