/**
 * The report's command line, {@code io.caskbench.report.cli.ReportCli} (what {@code exec:exec} runs):
 * {@code render}, {@code compare}, {@code machine}, {@code archive} and {@code check-docs} in
 * {@link io.caskbench.report.cli.ReportCli}, and {@code docs} in its own command class.
 *
 * <p>Depends on {@code docs}, {@code page}, {@code rule} and {@code input}; nothing depends on it.
 */
package io.caskbench.report.cli;
