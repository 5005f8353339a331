/**
 * Throughput assertions for unit tests: run a JMH benchmark class from a test
 * ({@link io.caskbench.bench.junit.JmhThroughput}) or time a lambda honestly
 * ({@link io.caskbench.bench.junit.QuickThroughput}), get a
 * {@link io.caskbench.bench.junit.ScoreTable} of scores with their errors, and assert on it with
 * {@link io.caskbench.bench.junit.ThroughputAssertions}: absolute floors, or ratios between scores
 * of the same run, which are the ones that hold on noisy CI machines.
 *
 * <p>Add {@code io.caskbench:bench-junit} as a test dependency: it brings JMH and nothing else,
 * no store and no logging binding. Nothing here depends on a test framework: failures are plain
 * {@link java.lang.AssertionError}s. Tag such tests (JUnit 5: {@code @Tag("perf")}) and keep them
 * out of the default build: a throughput assertion needs a quiet machine and seconds of run time,
 * and must not make an ordinary build flaky.
 */
package io.caskbench.bench.junit;
