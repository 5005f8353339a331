/**
 * The {@code replicated} suite: put and get of a store replicated by Raft ({@code bitcask-raft}), one group of
 * three replicas and three groups on the same three replicas, all on loopback in the benchmark's JVM, beside
 * the single-node store in the same run. Closed-loop throughput at 1, 8 and 64 clients
 * ({@link io.caskbench.bench.replicated.ReplicatedThroughput}) and open-loop latency percentiles at a rate
 * below saturation ({@link io.caskbench.bench.replicated.ReplicatedOpenLoop}). Three replicas sharing one
 * machine's cores measure what the protocol costs, not what a cluster of machines would do.
 */
package io.caskbench.bench.replicated;
