/**
 * Sustained-write benchmarks: one store put to for a whole iteration with its close timed
 * ({@link SustainedPut}), and the sustained overwrite of a fixed key space, BitCask's merge against
 * RocksDB's compaction ({@link SustainedOverwrite}, whose parts live in
 * {@link io.caskbench.bench.store.overwrite}).
 */
package io.caskbench.bench.store.sustained;
