/**
 * The store benchmarks: BitCask against its peers, each part in a package of its own.
 *
 * <ul>
 *   <li>{@code suite}: the suites that run them ({@code store}, {@code targets}, {@code threads} and the
 *       others), their parameter grids and settings;</li>
 *   <li>{@code single}: single-thread get and put, of the peers and of BitCask's backends;</li>
 *   <li>{@code threads}: 1000 platform threads, virtual threads and group commit;</li>
 *   <li>{@code latency}: latency percentiles, open-loop and closed-loop, with and without a merge;</li>
 *   <li>{@code sustained}: a store written for a whole iteration, and sustained overwrite;</li>
 *   <li>{@code fixture}: what they share: filled stores, put rounds, the thread gang, the footprint
 *       profiler and the store directories;</li>
 *   <li>{@code adapter}, {@code workload}, {@code overwrite}: the stores behind one interface, the keys and
 *       values, and the sustained-overwrite benchmark's parts.</li>
 * </ul>
 *
 * <p>Suites depend on benchmarks, benchmarks on fixtures, never the other way ({@code StoreLayoutTest}
 * holds it). A suite selects a benchmark by its simple class name, and bench-report matches rows by simple
 * class and method name, so a benchmark's package is not part of what either matches.
 */
package io.caskbench.bench.store;
