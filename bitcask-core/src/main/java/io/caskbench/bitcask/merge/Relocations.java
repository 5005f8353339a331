package io.caskbench.bitcask.merge;

import java.util.Arrays;

/**
 * The records a merge copied: for each, the key hash, where the record was and where its copy
 * is. Primitive arrays, because a merge of millions of records must not allocate per record.
 */
public final class Relocations {

    private int[] hashes = new int[1024];
    private long[] from = new long[1024];
    private long[] to = new long[1024];
    private int[] lengths = new int[1024];
    private int size;

    /** Records one copy. */
    public void add(int hash, long fromLocation, long toLocation, int length) {
        if (size == hashes.length) {
            int n = size * 2;
            hashes = Arrays.copyOf(hashes, n);
            from = Arrays.copyOf(from, n);
            to = Arrays.copyOf(to, n);
            lengths = Arrays.copyOf(lengths, n);
        }
        hashes[size] = hash;
        from[size] = fromLocation;
        to[size] = toLocation;
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

    /** New location of copy {@code i}. */
    public long to(int i) {
        return to[i];
    }

    /** Record length of copy {@code i}. */
    public int length(int i) {
        return lengths[i];
    }
}
