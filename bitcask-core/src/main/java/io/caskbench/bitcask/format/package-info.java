/**
 * Binary layouts of data and hint files, and the CRC32C that covers every record. Internal.
 */
package io.caskbench.bitcask.format;
