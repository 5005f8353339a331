/**
 * The generated blocks of the Markdown docs: {@link io.caskbench.report.docs.Docs} fills each
 * {@code <!-- generated:... -->} block of a page from a run folder, and
 * {@link io.caskbench.report.docs.PublishedBlocks} checks that every published block is what its committed run
 * under {@code docs/runs} renders today.
 *
 * <p>Depends on {@code table}, {@code rule}, {@code input} and {@code text}.
 */
package io.caskbench.report.docs;
