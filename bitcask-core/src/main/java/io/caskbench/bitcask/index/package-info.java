/**
 * The key directory: a lock-free-read open-addressing table from key hash to record location. Internal.
 */
package io.caskbench.bitcask.index;
