/**
 * bench-shm: how fast Java writes to and clears a shared-memory region compared with C, and whether a
 * shared-memory ring can replace UDP for talking to a C program.
 *
 * <p>The JMH suites ({@link io.caskbench.shm.RandomWriteBench}, {@link io.caskbench.shm.ClearBench},
 * {@link io.caskbench.shm.HeapArrayBench}, {@link io.caskbench.shm.PrngBench}) run over the regions of
 * {@link io.caskbench.shm.Backing}; {@link io.caskbench.shm.CAnchors} times the C programs in
 * {@code src/main/c} doing the same work; {@link io.caskbench.shm.ShmMain} runs everything and prints
 * the Java/C ratios. The messaging part lives in {@link io.caskbench.shm.msg}.
 */
package io.caskbench.shm;
