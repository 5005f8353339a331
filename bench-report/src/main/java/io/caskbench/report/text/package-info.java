/**
 * Text rendering shared by every output: {@link io.caskbench.report.text.Table} (a table rendered as aligned
 * plain text or as Markdown, and the one way scores, errors and ratios are formatted),
 * {@link io.caskbench.report.text.TextTable} (the aligned columns underneath) and
 * {@link io.caskbench.report.text.Document} (headings, lines and tables that become a results folder's
 * comparison file or a block of the docs).
 *
 * <p>Depends on nothing else of the report.
 */
package io.caskbench.report.text;
