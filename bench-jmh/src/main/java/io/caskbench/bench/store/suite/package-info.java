/**
 * The store suites: each names the benchmarks it runs (by simple class and method name), their parameter
 * grids per profile, and the report it ends with. {@link StoreSuite} is the default run and holds the
 * settings every store suite starts from; {@link PeerSuite} is what the suites of store-against-peer rows
 * share. {@code BenchMain} finds them through {@link java.util.ServiceLoader}.
 */
package io.caskbench.bench.store.suite;
