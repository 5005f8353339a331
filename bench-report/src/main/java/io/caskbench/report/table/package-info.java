/**
 * The per-suite comparisons that bench-jmh and bench-shm write beside a run and the docs publish: one class per
 * suite or block ({@code StoreTables}, {@code TargetTables}, {@code ThreadsTables}, {@code VirtualTables},
 * {@code EventOverheadTables}, {@code LatencyTables}, {@code OpenLoopTables}, {@code ScaleTables},
 * {@code OverwriteTables}, {@code ReplicatedTables}, {@code FilesTables}, {@code ShmTables}, and the README's
 * {@code Headline}), each turning result rows into a {@link io.caskbench.report.text.Document}; what the report
 * says about each store ({@link io.caskbench.report.table.StoreCatalog}) and the lookups the store tables share
 * ({@link io.caskbench.report.table.StoreRows}).
 *
 * <p>Depends on {@code chart}, {@code rule}, {@code input} and {@code text}.
 */
package io.caskbench.report.table;
