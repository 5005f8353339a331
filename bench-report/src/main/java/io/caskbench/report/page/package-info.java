/**
 * What a results folder gets at the end of a run ({@link io.caskbench.report.page.Reports}): a plain-text summary
 * beside each result file ({@link io.caskbench.report.page.Summaries}) and the one-file HTML report with its
 * charts ({@link io.caskbench.report.page.HtmlReport}), which also sets the seeds' published figures against ours
 * ({@link io.caskbench.report.page.SeedFigures}, from {@code seed-figures.json} beside it).
 *
 * <p>Depends on {@code chart}, {@code rule}, {@code input} and {@code text}.
 */
package io.caskbench.report.page;
