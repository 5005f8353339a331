/**
 * The key directory: a lock-free-read open-addressing table from key hash to record location, and
 * the packing of a location. Imports nothing of the engine. Internal.
 */
package io.caskbench.bitcask.index;
