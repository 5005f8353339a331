package io.caskbench.bitcask.merge;

import java.util.Arrays;

/**
 * Threading: the merging thread; the swap reads it under the log writer's lock.
 *
 * <p>The records a merge copied: for each, the key hash, where the record was, and which output and
 * offset its copy is at (an output's slot is not known until it is registered). Primitive arrays,
 * because a merge of millions of records must not allocate per record.
 */
public final class Relocations {

    // All fields: the merging thread, then the swap under the log writer's lock.
    private int[] hashes = new int[1024];
    private long[] from = new long[1024];
    private int[] outputs = new int[1024];
    private long[] offsets = new long[1024];
    private int[] lengths = new int[1024];
    private int size;

    /** Records one copy: to offset {@code offset} of the merge's output number {@code output}. */
    public void add(int hash, long fromLocation, int output, long offset, int length) {
        if (size == hashes.length) {
            int n = size * 2;
            hashes = Arrays.copyOf(hashes, n);
            from = Arrays.copyOf(from, n);
            outputs = Arrays.copyOf(outputs, n);
            offsets = Arrays.copyOf(offsets, n);
            lengths = Arrays.copyOf(lengths, n);
        }
        hashes[size] = hash;
        from[size] = fromLocation;
        outputs[size] = output;
        offsets[size] = offset;
        lengths[size] = length;
        size++;
    }

    /** Number of copies. */
    public int size() {
        return size;
    }

    /** Key hash of copy {@code i}. */
    public int hash(int i) {
        return hashes[i];
    }

    /** Original location of copy {@code i}. */
    public long from(int i) {
        return from[i];
    }

    /** Which output (in the order the merge finished them) holds copy {@code i}. */
    public int output(int i) {
        return outputs[i];
    }

    /** Offset of copy {@code i} in its output. */
    public long offset(int i) {
        return offsets[i];
    }

    /** Record length of copy {@code i}. */
    public int length(int i) {
        return lengths[i];
    }
}
