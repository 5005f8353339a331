/**
 * Read benchmarks: whole files with six readers (the phone experiment) and random chunks of one large file
 * with three (the laptop experiment).
 */
package io.caskbench.bench.files.read;
