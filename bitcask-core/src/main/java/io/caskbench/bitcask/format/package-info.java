/**
 * Binary layouts of data and hint files, the CRC32C that covers every record, and the key hash
 * hint files are ordered by. Imports nothing of the engine. Internal.
 */
package io.caskbench.bitcask.format;
