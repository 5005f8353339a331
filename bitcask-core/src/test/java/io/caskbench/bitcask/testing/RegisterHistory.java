package io.caskbench.bitcask.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The history of one key used as a register: writes of unique values and reads, each with the times it
 * was invoked and returned. {@link #violation()} decides whether the history is linearizable, that is,
 * whether every operation can be placed at one instant inside its own interval so that each read returns
 * the latest write before it.
 *
 * <p>With unique values this takes no search (Gibbons and Korach, "Testing shared memories", 1997). A
 * write and the reads of its value form a cluster. The cluster's zone runs from the earliest return of
 * its operations to the latest invocation: when the earliest return comes first, the zone is
 * <em>forward</em>, and the cluster must stay current through all of it; otherwise it is
 * <em>backward</em>, and its operations can all be placed at one instant inside it. The history is
 * linearizable exactly when every read returns a value that was written and not before its write was
 * invoked, no two forward zones overlap, and no backward zone lies inside a forward zone of another
 * cluster.
 *
 * <p>Not thread-safe: each thread records into its own history, and {@link #addAll} joins them after the
 * threads have ended.
 */
public final class RegisterHistory {

    /** One operation: {@code invoked} and {@code returned} are {@code System.nanoTime()} readings. */
    private record Op(boolean write, long value, long invoked, long returned) {
    }

    private final List<Op> ops = new ArrayList<>();

    /** Records a write of {@code value}, which no other write of this key may use. */
    public void write(long value, long invoked, long returned) {
        ops.add(new Op(true, value, invoked, returned));
    }

    /** Records a read that returned {@code value}. */
    public void read(long value, long invoked, long returned) {
        ops.add(new Op(false, value, invoked, returned));
    }

    /** Adds every operation of {@code other}. */
    public void addAll(RegisterHistory other) {
        ops.addAll(other.ops);
    }

    /** How many operations were recorded. */
    public int size() {
        return ops.size();
    }

    /** Why the history cannot be linearized, or empty when it can. */
    public Optional<String> violation() {
        Map<Long, Op> writes = new HashMap<>();
        for (Op op : ops) {
            if (op.write() && writes.put(op.value(), op) != null) {
                throw new IllegalArgumentException("value " + op.value() + " written twice: values must be unique");
            }
        }
        Map<Long, long[]> zones = new HashMap<>(); // value -> {earliest return, latest invocation}
        for (Op op : ops) {
            Op w = writes.get(op.value());
            if (w == null) {
                return Optional.of("a read returned " + op.value() + ", which no write wrote");
            }
            if (op.returned() < w.invoked()) {
                return Optional.of("a read returned " + op.value() + " before the write of it began");
            }
            long[] z = zones.computeIfAbsent(op.value(), v -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            z[0] = Math.min(z[0], op.returned());
            z[1] = Math.max(z[1], op.invoked());
        }
        List<long[]> forward = new ArrayList<>();
        List<long[]> backward = new ArrayList<>();
        zones.forEach((value, z) -> (z[0] < z[1] ? forward : backward).add(new long[] {z[0], z[1], value}));
        forward.sort((a, b) -> Long.compare(a[0], b[0]));
        for (int i = 1; i < forward.size(); i++) {
            long[] before = forward.get(i - 1);
            long[] after = forward.get(i);
            if (after[0] < before[1]) {
                return Optional.of("values " + before[2] + " and " + after[2]
                        + " were each current across a span the other overlaps");
            }
        }
        for (long[] b : backward) {
            // A backward zone [latest invocation, earliest return] lies inside a forward zone: the forward
            // cluster's value was still being read after its whole span.
            long from = b[1];
            long to = b[0];
            // Strictly inside: an instant shared with a zone's edge is a legal place for the cluster.
            int i = lastStartingBefore(forward, from);
            if (i >= 0 && forward.get(i)[1] > to) {
                return Optional.of("value " + b[2] + " was written and read entirely while value "
                        + forward.get(i)[2] + " had to stay current");
            }
        }
        return Optional.empty();
    }

    /** The index of the last forward zone (sorted by start) that starts before {@code t}, or -1. */
    private static int lastStartingBefore(List<long[]> forward, long t) {
        int lo = 0;
        int hi = forward.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (forward.get(mid)[0] < t) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
