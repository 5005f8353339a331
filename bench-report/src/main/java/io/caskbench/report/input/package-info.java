/**
 * What a run leaves behind, read and written: JMH's JSON result files ({@link io.caskbench.report.input.ResultFile},
 * {@link io.caskbench.report.input.JmhResult}, {@link io.caskbench.report.input.Metric}), their units
 * ({@link io.caskbench.report.input.Units}), the results folders and their {@code latest} link
 * ({@link io.caskbench.report.input.RunFolders}), the command a run was made with
 * ({@link io.caskbench.report.input.RunRecord}), the machine it ran on ({@link io.caskbench.report.input.Machine}),
 * the committed copy of a run under {@code docs/runs} ({@link io.caskbench.report.input.RunArchive}), the files
 * suite's page-cache evidence ({@link io.caskbench.report.input.CacheState}) and the overwrite suite's time series
 * ({@link io.caskbench.report.input.OverwriteSeries}).
 *
 * <p>Depends on no other package of the report; Jackson reads the JSON ({@link io.caskbench.report.input.Json}).
 */
package io.caskbench.report.input;
