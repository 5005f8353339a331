package io.caskbench.bitcask;

import io.caskbench.bitcask.VerifyReport.Finding;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link BitCask#backup} copied, and what its check of every copy found.
 *
 * <p>A backup copies every data file byte for byte and reads each copy back, checking every record
 * against its file and offset. Bytes that fail their check are damage the store already holds (a
 * write that failed halfway leaves such bytes too): the copy keeps them as they are, so the backup's
 * open skips exactly what the store's open skips, and each one is a finding here, of the kinds
 * {@link BitCask#verify} reports. A hint file that fails its own checks is left out of the backup
 * (its open scans the data file instead) and is a finding as well.
 *
 * @param target   the backup's directory
 * @param files    data and hint files copied
 * @param bytes    bytes copied
 * @param records  records checked, each against its file and offset
 * @param findings the damage found in the copies, in file order; each names the store's file
 */
public record BackupReport(Path target, int files, long bytes, long records, List<Finding> findings) {

    /** True when every copy checked out: the backup holds no byte that fails its check. */
    public boolean clean() {
        return findings.isEmpty();
    }

    /** True when some finding puts records at risk (see {@link VerifyReport.Kind#dataAtRisk()}), in the store and the backup alike. */
    public boolean dataAtRisk() {
        return findings.stream().anyMatch(f -> f.kind().dataAtRisk());
    }
}
