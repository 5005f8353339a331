/**
 * Read benchmarks: whole files with six readers (seed 000) and random chunks of one large file
 * with three (seed 004).
 */
package io.caskbench.bench.files.read;
