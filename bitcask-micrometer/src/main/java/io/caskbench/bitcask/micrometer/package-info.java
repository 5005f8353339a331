/**
 * Micrometer meters for a BitCask store: {@link io.caskbench.bitcask.micrometer.BitCaskMetrics}, a
 * {@code MeterBinder} over the store's public {@code stats()} and {@code counters()}.
 */
package io.caskbench.bitcask.micrometer;
