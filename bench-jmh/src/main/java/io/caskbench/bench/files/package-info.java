/**
 * The {@code files} suite: how fast Java reads files (whole-file readers, random chunks, warm and
 * cold page cache) and performs file-system operations, after the reference experiments that timed
 * reading 800 small files and a few large ones whole, the file operations of a mobile file manager, and
 * stream reads against a memory mapping.
 *
 * <p>{@link io.caskbench.bench.files.read} holds the read benchmarks,
 * {@link io.caskbench.bench.files.ops} the file-operation benchmarks, and
 * {@link io.caskbench.bench.files.fixture} the scratch files, checksums, mappings and page-cache
 * control they share.
 */
package io.caskbench.bench.files;
