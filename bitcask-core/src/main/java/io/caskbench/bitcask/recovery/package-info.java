/**
 * Opening a store: removing debris, loading data files from hints or by scanning, reopening the
 * newest segment at its valid end. Internal.
 */
package io.caskbench.bitcask.recovery;
