/**
 * Many-thread benchmarks: 1000 platform threads on one store ({@link ThousandThreads}, and JMH's own
 * threads as a cross-check), virtual threads with the carriers they pin and add ({@link VirtualThreads}),
 * group commit with a forced write per put ({@link GroupCommit}), and the reference experiment's workload
 * of one thread then 1000 ({@link SeedWorkload}).
 */
package io.caskbench.bench.store.threads;
