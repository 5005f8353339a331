package io.caskbench.bitcask.merge;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>The space a store may take on its disk, and how far past it a store is: its merge debt. With
 * {@code L} the live bytes, {@code D} the data bytes (every record of every segment, live or dead),
 * {@code S} the segment size, {@code a} the largest space amplification allowed and {@code r} the
 * automatic merge's trigger ratio:
 *
 * <ul>
 *   <li>the <em>hard limit</em> {@code H = a·L + S}: the data may never pass it; puts wait there. The
 *       {@code S} is the active segment, which no merge can take while it is written;</li>
 *   <li>the <em>comfortable level</em> {@code C = min(H, L / (1 - r) + S)}: where an automatic merge
 *       starts, a dead share of {@code r};</li>
 *   <li>the <em>soft limit</em> {@code C + (H - C) · SOFT_FRACTION}: past it puts are delayed, merges
 *       run without resting for the foreground, and they select any segment with dead bytes;</li>
 *   <li>the <em>debt</em> {@code max(0, D - C)}: the bytes merges owe.</li>
 * </ul>
 *
 * <p>Hint files come on top: they list a record's key and place, not its value.
 */
public final class SpaceBound {

    /** How far from the comfortable level to the hard limit the soft limit lies. */
    public static final double SOFT_FRACTION = 0.5;

    /** Final. */
    private final double maxAmplification;
    /** Live bytes over data bytes at the comfortable level, {@code 1 / (1 - r)}; final. */
    private final double comfortableAmplification;
    /** The active segment's room, {@code S}; final. */
    private final long slack;

    /** The figures of a store against its bound: where each limit lies for its live bytes now. */
    public record Level(long live, long data, long comfortable, long soft, long hard) {

        /** Data bytes over the comfortable level: what merges owe; 0 when none. */
        public long debt() {
            return Math.max(0, data - comfortable);
        }

        /** True past the soft limit: puts are delayed. */
        public boolean overSoft() {
            return data > soft;
        }

        /** True past the hard limit: puts wait. */
        public boolean overHard() {
            return data > hard;
        }

        /** How far from the soft limit to the hard limit the data lies: 0 at or under the soft limit, 1 at or past the hard one. */
        public double depth() {
            if (data <= soft) {
                return 0;
            }
            return hard <= soft ? 1 : Math.min(1, (double) (data - soft) / (hard - soft));
        }
    }

    /**
     * The bound of a store whose data may reach {@code maxAmplification} times its live bytes (infinite for
     * no bound) plus a segment of {@code segmentSize}, whose automatic merge starts at a dead share of
     * {@code mergeDeadRatio}.
     */
    public SpaceBound(double maxAmplification, double mergeDeadRatio, long segmentSize) {
        if (!(maxAmplification > 1)) {
            throw new IllegalArgumentException("maxAmplification must be over 1: " + maxAmplification);
        }
        this.maxAmplification = maxAmplification;
        this.comfortableAmplification = mergeDeadRatio >= 1 ? Double.POSITIVE_INFINITY : 1 / (1 - mergeDeadRatio);
        this.slack = segmentSize;
    }

    /** True when there is a bound at all. */
    public boolean bounded() {
        return maxAmplification != Double.POSITIVE_INFINITY;
    }

    /** The largest space amplification allowed. */
    public double maxAmplification() {
        return maxAmplification;
    }

    /** The active segment's room in the bound. */
    public long slack() {
        return slack;
    }

    /** Where the limits lie for {@code live} live bytes, and where {@code data} data bytes stand. */
    public Level level(long live, long data) {
        long l = Math.max(0, live);
        long hard = bytes(maxAmplification * l + slack);
        long comfortable = Math.min(hard, bytes(comfortableAmplification * l + slack));
        long soft = comfortable + (long) ((hard - comfortable) * SOFT_FRACTION);
        return new Level(l, data, comfortable, soft, hard);
    }

    /** A byte count, saturated: an unbounded level is {@link Long#MAX_VALUE}. */
    private static long bytes(double d) {
        return d >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) d;
    }
}
