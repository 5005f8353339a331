package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.segment.Segment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>Which segments a selective merge takes. A segment is <em>fragmented</em> when its dead share
 * reaches a ratio or its dead bytes reach a count; a segment that is not is <em>small</em> when its
 * data is under a size, so folding it in costs little and retires a file. Fragmented segments go
 * first, most dead bytes first; small ones follow, smallest first; both only while the input bytes
 * stay within a bound (the first segment is always taken, so a bound below one segment still
 * merges). Small segments alone are merged only when there are two or more of them and they hold a
 * dead byte, so a quiet store is not merged over and over.
 *
 * <p>While {@code urgent} says so (the store is past its soft limit, and writes wait for merges), every
 * segment with a dead byte counts as fragmented, most dead bytes first: under a uniform overwrite the dead
 * bytes spread thin over every segment, and no segment might reach the thresholds while the store as a
 * whole is far over its bound.
 */
public final class SegmentSelector {

    /** Final. */
    private final double deadRatio;
    /** Final. */
    private final long deadBytes;
    /** Final. */
    private final long smallBytes;
    /** Final. */
    private final long maxInputBytes;
    /** Whether any dead byte makes a segment worth merging now; final. */
    private final BooleanSupplier urgent;

    /**
     * A selector of segments whose dead share reaches {@code deadRatio} or whose dead bytes reach
     * {@code deadBytes}, with segments under {@code smallBytes} folded in, up to {@code maxInputBytes}.
     */
    public SegmentSelector(double deadRatio, long deadBytes, long smallBytes, long maxInputBytes) {
        this(deadRatio, deadBytes, smallBytes, maxInputBytes, () -> false);
    }

    /** Such a selector that, while {@code urgent}, takes any segment with a dead byte as fragmented. */
    public SegmentSelector(double deadRatio, long deadBytes, long smallBytes, long maxInputBytes, BooleanSupplier urgent) {
        this.deadRatio = deadRatio;
        this.deadBytes = deadBytes;
        this.smallBytes = smallBytes;
        this.maxInputBytes = maxInputBytes;
        this.urgent = urgent;
    }

    /** The inputs of a merge among {@code segments} (any order), oldest first; empty when none is worth it. */
    public List<Segment> select(List<Segment> segments) {
        List<Segment> fragmented = new ArrayList<>();
        List<Segment> small = new ArrayList<>();
        boolean anyDead = urgent.getAsBoolean();
        for (Segment seg : segments) {
            long data = seg.dataBytes();
            long dead = dead(seg);
            if (dead > 0 && (anyDead || dead >= deadBytes || dead >= deadRatio * data)) {
                fragmented.add(seg);
            } else if (data < smallBytes) {
                small.add(seg);
            }
        }
        if (fragmented.isEmpty() && (small.size() < 2 || small.stream().allMatch(s -> dead(s) == 0))) {
            return List.of();
        }
        fragmented.sort(Comparator.comparingLong(SegmentSelector::dead).reversed());
        small.sort(Comparator.comparingLong(Segment::dataBytes));
        List<Segment> chosen = new ArrayList<>();
        long input = 0;
        for (List<Segment> group : List.of(fragmented, small)) {
            for (Segment seg : group) {
                if (!chosen.isEmpty() && input + seg.dataBytes() > maxInputBytes) {
                    continue; // a smaller one further on may still fit
                }
                chosen.add(seg);
                input += seg.dataBytes();
            }
        }
        chosen.sort(Comparator.comparingLong(Segment::id));
        return chosen;
    }

    /** Every segment that holds a dead byte makes a full merge worth it: all of {@code segments}, oldest first, or none. */
    public static List<Segment> all(List<Segment> segments) {
        if (segments.stream().allMatch(s -> dead(s) == 0)) {
            return List.of();
        }
        List<Segment> chosen = new ArrayList<>(segments);
        chosen.sort(Comparator.comparingLong(Segment::id));
        return chosen;
    }

    private static long dead(Segment seg) {
        return Math.max(0, seg.dataBytes() - seg.liveBytes());
    }
}
