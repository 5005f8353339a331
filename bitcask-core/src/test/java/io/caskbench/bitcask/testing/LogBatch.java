package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.log.LogWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A batch for {@link LogWriter#appendBatch}, made of the entries of a map in its order: a null
 * value is a delete, and no member expires. For the tests that drive the log writer without the
 * facade's {@code WriteBatch}.
 */
public final class LogBatch implements LogWriter.Batch {

    private final List<Map.Entry<String, byte[]>> members;

    /** The batch of {@code members} in their iteration order (use an ordered map). */
    public LogBatch(Map<String, byte[]> members) {
        this.members = new ArrayList<>(members.entrySet());
    }

    /** The bytes the batch takes in a segment, its header included: what appendBatch is told. */
    public int length() {
        int total = RecordFormat.BATCH_HEADER_SIZE;
        for (Map.Entry<String, byte[]> m : members) {
            total += RecordFormat.recordLength(0, Bytes.b(m.getKey()).length, m.getValue() == null ? 0 : m.getValue().length);
        }
        return total;
    }

    @Override
    public int size() {
        return members.size();
    }

    @Override
    public byte[] key(int i) {
        return Bytes.b(members.get(i).getKey());
    }

    @Override
    public byte[] value(int i) {
        return members.get(i).getValue();
    }

    @Override
    public long ttlMillis(int i) {
        return 0;
    }
}
