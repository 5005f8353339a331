package io.caskbench.bitcask.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The contents a store may hold after a sequence of writes of which some are uncertain (the call
 * threw, so it may or may not have taken effect). Each uncertain write is applied whole or not
 * at all, independently of the others: one possible world per subset.
 */
public final class PossibleWorlds {

    /** More uncertain writes than this means the test lost track of its faults. */
    private static final int MAX_UNCERTAIN = 12;

    private final List<Step> writes = new ArrayList<>();
    private final List<Boolean> certain = new ArrayList<>();
    private int uncertain;

    /** Starts from an empty store. */
    public PossibleWorlds() {
    }

    /** A write that was acknowledged. */
    public void applied(Step write) {
        writes.add(write);
        certain.add(true);
    }

    /** A write that threw: it may be there whole, or not at all. */
    public void maybeApplied(Step write) {
        if (++uncertain > MAX_UNCERTAIN) {
            throw new IllegalStateException("more than " + MAX_UNCERTAIN + " uncertain writes");
        }
        writes.add(write);
        certain.add(false);
    }

    /** Every possible content. */
    public List<TreeMap<String, byte[]>> all() {
        List<TreeMap<String, byte[]>> worlds = new ArrayList<>();
        for (int mask = 0; mask < 1 << uncertain; mask++) {
            TreeMap<String, byte[]> state = new TreeMap<>();
            int bit = 0;
            for (int i = 0; i < writes.size(); i++) {
                boolean apply = certain.get(i) || (mask & (1 << bit++)) != 0;
                if (apply) {
                    writes.get(i).applyTo(state);
                }
            }
            worlds.add(state);
        }
        return worlds;
    }

    /** True when {@code state} is one of the possible contents. */
    public boolean allows(Map<String, byte[]> state) {
        return all().stream().anyMatch(w -> StoreState.same(w, state));
    }

    /** True when some possible content holds {@code value} (null: absent) under {@code key}. */
    public boolean allows(String key, byte[] value) {
        return all().stream().anyMatch(w -> Arrays.equals(w.get(key), value));
    }

    /** How {@code state} differs from each possible content, for a failure message. */
    public String explain(Map<String, byte[]> state) {
        StringBuilder sb = new StringBuilder();
        List<TreeMap<String, byte[]>> worlds = all();
        for (int w = 0; w < worlds.size(); w++) {
            sb.append("\n    vs possible content ").append(w + 1).append('/').append(worlds.size()).append(':')
                    .append(StoreState.diff(state, worlds.get(w)));
        }
        return sb.toString();
    }

    /** A copy that later writes do not change. */
    public PossibleWorlds snapshot() {
        PossibleWorlds c = new PossibleWorlds();
        c.writes.addAll(writes);
        c.certain.addAll(certain);
        c.uncertain = uncertain;
        return c;
    }
}
