/**
 * How a row is judged: each suite's reference rule ({@link io.caskbench.report.rule.Suites},
 * {@link io.caskbench.report.rule.ReferenceRule}, {@link io.caskbench.report.rule.ParamRule},
 * {@link io.caskbench.report.rule.ShmRule}) and the result files that share one
 * ({@link io.caskbench.report.rule.SuiteResults}); the spread of fork means and the bootstrap over forks behind
 * every interval ({@link io.caskbench.report.rule.Spread}, {@link io.caskbench.report.rule.Bootstrap}); the goals a
 * ratio is held to ({@link io.caskbench.report.rule.Goal}); the benchmarks that only cross-check another
 * ({@link io.caskbench.report.rule.CrossCheck}); what an open-loop row may say beside its harness floor, when it
 * did not keep up, and of the operations it never started ({@link io.caskbench.report.rule.OpenLoopRule}); and
 * two runs compared row by row ({@link io.caskbench.report.rule.Comparison}).
 *
 * <p>Depends on {@code input} and {@code text}.
 */
package io.caskbench.report.rule;
