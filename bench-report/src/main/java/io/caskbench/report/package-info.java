/**
 * The results pipeline shared by bench-jmh and bench-shm: reads JMH's JSON result files, records the
 * machine a run was made on, writes plain-text summaries and a self-contained HTML report with charts,
 * compares two runs, writes the generated blocks of the docs from a run, and keeps the runs behind the
 * published blocks under {@code docs/runs} ({@link io.caskbench.report.input.RunArchive}), checked by
 * {@link io.caskbench.report.docs.PublishedBlocks}. Every ratio's verdict comes from a bootstrap over forks
 * ({@link io.caskbench.report.rule.Spread}, {@link io.caskbench.report.rule.Goal}).
 *
 * <p>Entry points: {@link io.caskbench.report.input.Machine#write(java.nio.file.Path)},
 * {@link io.caskbench.report.page.Reports#renderAll(java.nio.file.Path)}, the per-suite tables in
 * {@link io.caskbench.report.table} and the command line {@link io.caskbench.report.cli.ReportCli}.
 *
 * <p>The packages, in layers: a package uses only packages on lines below its own, never one on its own
 * line or above ({@code LayeringTest} holds the layers and forbids cycles between packages).
 * <pre>
 *   cli            the command line: render, compare, machine, archive, check-docs, docs
 *   docs   page    the docs' generated blocks and their check | a run folder's summaries and HTML report
 *   table          the per-suite comparison tables
 *   chart          SVG charts drawn with XChart
 *   rule           reference rules, goals, the bootstrap over forks, two runs compared
 *   input  text    JMH JSON, run folders, archives, the machine | plain-text and Markdown tables
 * </pre>
 * This package itself holds no classes.
 */
package io.caskbench.report;
