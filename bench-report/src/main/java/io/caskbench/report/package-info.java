/**
 * The results pipeline shared by bench-jmh and bench-shm: reads JMH's JSON result files, records the
 * machine a run was made on, writes plain-text summaries and a self-contained HTML report with charts,
 * and compares two runs.
 *
 * <p>Entry points: {@link io.caskbench.report.Machine#write(java.nio.file.Path)},
 * {@link io.caskbench.report.Reports#renderAll(java.nio.file.Path)} and the command line
 * {@link io.caskbench.report.ReportCli}.
 */
package io.caskbench.report;
