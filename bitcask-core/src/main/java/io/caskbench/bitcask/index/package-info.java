/**
 * The key directory ({@code KeyDir}: what a put, a delete, a merge and a rebuild do to it) over its
 * slot table ({@code SlotTable}: the lock-free-read open-addressing slots and their stores), and the
 * packing of a location. Imports nothing of the engine. Internal.
 */
package io.caskbench.bitcask.index;
