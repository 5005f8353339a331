/**
 * The charts, drawn with XChart and written as compact SVG through VectorGraphics2D
 * ({@link io.caskbench.report.chart.ChartSvg}, {@link io.caskbench.report.chart.PathData}): the bar charts of a
 * suite's rows with their reference ratios ({@link io.caskbench.report.chart.Charts}), the scale suite's log-log
 * lines ({@link io.caskbench.report.chart.ScaleChart}) and the overwrite suite's panels over time
 * ({@link io.caskbench.report.chart.OverwriteChart}).
 *
 * <p>Depends on {@code input} and {@code rule}.
 */
package io.caskbench.report.chart;
