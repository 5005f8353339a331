/**
 * The {@code files} suite: how fast Java reads files (whole-file readers, random chunks, warm and
 * cold page cache) and performs file-system operations, after seeds 000, 003 and 004.
 *
 * <p>{@link io.caskbench.bench.files.read} holds the read benchmarks,
 * {@link io.caskbench.bench.files.ops} the file-operation benchmarks, and
 * {@link io.caskbench.bench.files.fixture} the scratch files, checksums, mappings and page-cache
 * control they share.
 */
package io.caskbench.bench.files;
