/**
 * An open-loop load driver: operations issued at a fixed arrival rate, each timed from when it was due.
 *
 * <p>A closed-loop benchmark times operations back to back, so a stall delays the operations that would
 * have been issued during it and they are never timed: the tail it reports is coordinated with the system
 * under test (coordinated omission). Here every worker thread follows its own schedule of intended start
 * times ({@link io.caskbench.bench.openloop.Schedule}); a thread that falls behind issues back to back until
 * it has caught up, and each latency is completion minus the intended start, recorded into HdrHistogram.
 *
 * <p>{@link io.caskbench.bench.openloop.OpenLoopDriver} runs the load and returns an
 * {@link io.caskbench.bench.openloop.OpenLoopResult}; {@link io.caskbench.bench.openloop.OpenLoopProfiler}
 * carries that result into JMH's JSON as secondary metrics ({@code p50}, {@code p99}, {@code p99.9},
 * {@code max} in microseconds, {@code offered} and {@code achieved} in operations per second).
 *
 * <p>A thread waits for a due time by parking until a little before it and spinning to it
 * ({@link io.caskbench.bench.openloop.SpinAhead}), and {@link io.caskbench.bench.openloop.HarnessPass} runs the
 * same schedule with a 1 us operation just before the measured pass: the floor the report puts beside it.
 */
package io.caskbench.bench.openloop;
