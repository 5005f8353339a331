/**
 * Latency benchmarks: get and put percentiles open-loop at fixed arrival rates ({@link MixedTailOpenLoop},
 * {@link MergeTailOpenLoop}) and closed-loop in JMH's sample mode ({@link MixedTail},
 * {@link MergeLatency}), with a merge running back to back and without, over the BitCask store they share
 * ({@link LatencyStore}).
 */
package io.caskbench.bench.store.latency;
