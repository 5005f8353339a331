/**
 * File-system operation benchmarks after the iPod experiment, in Java NIO: lookups, traversal, create, write,
 * copy, move, delete, links, sequential writes with and without frequent force, chunked reads and
 * seeks.
 */
package io.caskbench.bench.files.ops;
