/** bench-report: placeholder until its issue lands. */
package io.caskbench.report;
