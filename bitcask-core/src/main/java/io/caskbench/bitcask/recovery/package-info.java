/**
 * Opening a store: removing debris, loading data files from hints or by scanning, reopening the
 * newest segment at its valid end. Beside it, the same rules applied to a store directory without
 * opening it: verify reports what open would find and do, repair does it once and for good.
 * Internal.
 */
package io.caskbench.bitcask.recovery;
