/**
 * The results pipeline shared by bench-jmh and bench-shm: reads JMH's JSON result files, records the
 * machine a run was made on, writes plain-text summaries and a self-contained HTML report with charts,
 * compares two runs, writes the generated blocks of the docs from a run, and keeps the runs behind the
 * published blocks under {@code docs/runs} ({@link io.caskbench.report.input.RunArchive}), checked by
 * {@link io.caskbench.report.docs.PublishedBlocks}. Every ratio's verdict comes from a bootstrap over forks
 * ({@link io.caskbench.report.rule.Spread}, {@link io.caskbench.report.rule.Goal}).
 *
 * <p>Entry points: {@link io.caskbench.report.input.Machine#write(java.nio.file.Path)},
 * {@link io.caskbench.report.page.Reports#renderAll(java.nio.file.Path)} and the command line
 * {@link io.caskbench.report.cli.ReportCli}.
 */
package io.caskbench.report;
