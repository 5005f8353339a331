package io.caskbench.bitcask;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.io.SegmentBackend;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Threading: immutable, safe everywhere; the builder is for one thread.
 *
 * <p>Immutable options of a {@link BitCask}. Build them with {@link #builder()}; every option has a
 * default, listed on its builder method and in the README. It is over 400 lines because it is the
 * public API of 21 options, each a documented getter, a documented and validated builder setter
 * and mostly a documented default constant; it holds no engine logic.
 */
public final class BitCaskOptions {

    /** Default segment size: 64 MiB. */
    public static final long DEFAULT_SEGMENT_SIZE = 64L << 20;
    /** Smallest segment size accepted: 64 KiB. */
    public static final long MIN_SEGMENT_SIZE = 64L << 10;
    /** Largest segment size accepted: what one mapping can hold. */
    public static final long MAX_SEGMENT_SIZE = Integer.MAX_VALUE;
    /** Default largest key: 1 KiB. */
    public static final int DEFAULT_MAX_KEY_SIZE = 1024;
    /** Default largest value: 16 MiB, or what fits in a segment when segments are smaller. */
    public static final int DEFAULT_MAX_VALUE_SIZE = 16 << 20;
    /** Default background sync interval for {@link SyncPolicy#INTERVAL}: 1 second. */
    public static final Duration DEFAULT_SYNC_INTERVAL = Duration.ofSeconds(1);
    /**
     * Default dead-bytes ratio at which automatic merge starts: 0.25. A merge starts as soon as it is
     * crossed, so the data holds 1 / (1 - 0.25) = 1.33 times the live bytes when one starts, plus what
     * is written while it runs: a margin of 0.17 times the live bytes under the 1.5 the store aims for
     * (at 0.3 the margin was 0.07, and one merge after a fill of 200,000 keys at 20,000 puts/s took it to
     * 1.51). Being equal to {@link #DEFAULT_MERGE_SEGMENT_DEAD_RATIO}, a store past it always has a
     * segment the selection takes.
     */
    public static final double DEFAULT_MERGE_DEAD_RATIO = 0.25;
    /** Default dead bytes at which automatic merge starts whatever the ratio: 512 MiB. */
    public static final long DEFAULT_MERGE_DEAD_BYTES = 512L << 20;
    /**
     * Default dead share at which a merge selects a segment: 0.25, the trigger's. Such a segment costs at
     * most 0.75 bytes copied per byte read and gives back at least 0.25; the selection takes the most dead
     * first, and under overwrites the oldest segments are far deader than the threshold, so the bytes a
     * merge copies per byte it reclaims stay near 1 where the threshold alone would allow 3.
     */
    public static final double DEFAULT_MERGE_SEGMENT_DEAD_RATIO = 0.25;
    /**
     * Default dead bytes at which a merge selects a segment whatever its share: 128 MiB. Reclaiming
     * that much is worth a copy of the rest; it only matters with segments over 128 MiB / 0.25.
     */
    public static final long DEFAULT_MERGE_SEGMENT_DEAD_BYTES = 128L << 20;
    /** Default largest input of one merge: 1 GiB, so one merge's time and the room it needs stay bounded. */
    public static final long DEFAULT_MERGE_MAX_INPUT_BYTES = 1L << 30;
    /**
     * Default time between automatic merge checks: 10 seconds. A fallback: the store also looks at the
     * trigger every few milliseconds from the figures it keeps, and merges as soon as it is crossed.
     */
    public static final Duration DEFAULT_MERGE_CHECK_INTERVAL = Duration.ofSeconds(10);
    /**
     * Default bound on the data bytes: 2 times the live bytes, plus the active segment. Far enough above
     * where automatic merges start (1.33 times, at the default trigger) that merges that keep up never
     * meet it, and near enough that a disk sized for twice the data is never filled by garbage.
     */
    public static final double DEFAULT_MAX_SPACE_AMPLIFICATION = 2.0;
    /** Default longest wait of a put at the space bound before it throws: 60 seconds. */
    public static final Duration DEFAULT_WRITE_STALL_TIMEOUT = Duration.ofSeconds(60);

    private final Backend backend;
    private final SegmentBackend segmentBackend;
    private final long segmentSize;
    private final SyncPolicy syncPolicy;
    private final Duration syncInterval;
    private final int maxKeySize;
    private final int maxValueSize;
    private final boolean readOnly;
    private final long expectedKeys;
    private final Clock clock;
    private final boolean autoMerge;
    private final double mergeDeadRatio;
    private final long mergeDeadBytes;
    private final long mergeBytesPerSecond;
    private final boolean mergePacing;
    private final Duration mergeCheckInterval;
    private final double mergeSegmentDeadRatio;
    private final long mergeSegmentDeadBytes;
    private final long mergeSmallSegmentBytes;
    private final long mergeMaxInputBytes;
    private final double maxSpaceAmplification;
    private final Duration writeStallTimeout;

    private BitCaskOptions(Builder b) {
        this.backend = b.backend;
        this.segmentBackend = b.segmentBackend;
        this.segmentSize = b.segmentSize;
        this.syncPolicy = b.syncPolicy;
        this.syncInterval = b.syncInterval;
        this.maxKeySize = b.maxKeySize;
        this.maxValueSize = b.maxValueSize >= 0 ? b.maxValueSize : defaultMaxValue(b.segmentSize, b.maxKeySize);
        this.readOnly = b.readOnly;
        this.expectedKeys = b.expectedKeys;
        this.clock = b.clock;
        this.autoMerge = b.autoMerge;
        this.mergeDeadRatio = b.mergeDeadRatio;
        this.mergeDeadBytes = b.mergeDeadBytes;
        this.mergeBytesPerSecond = b.mergeBytesPerSecond;
        this.mergePacing = b.mergePacing;
        this.mergeCheckInterval = b.mergeCheckInterval;
        this.mergeSegmentDeadRatio = b.mergeSegmentDeadRatio;
        this.mergeSegmentDeadBytes = b.mergeSegmentDeadBytes;
        this.mergeSmallSegmentBytes = b.mergeSmallSegmentBytes >= 0 ? b.mergeSmallSegmentBytes : b.segmentSize / 4;
        this.mergeMaxInputBytes = b.mergeMaxInputBytes;
        this.maxSpaceAmplification = b.maxSpaceAmplification;
        this.writeStallTimeout = b.writeStallTimeout;
        // In long arithmetic: a limit near Integer.MAX_VALUE must be refused here, not overflow.
        long largest = (long) RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + maxKeySize + maxValueSize
                + RecordFormat.FILE_HEADER_SIZE;
        if (largest > segmentSize) {
            throw new IllegalArgumentException("a record with a " + maxKeySize + "-byte key and a " + maxValueSize
                    + "-byte value does not fit in a " + segmentSize + "-byte segment");
        }
    }

    private static int defaultMaxValue(long segmentSize, int maxKeySize) {
        long room = segmentSize - RecordFormat.FILE_HEADER_SIZE - RecordFormat.HEADER_SIZE - RecordFormat.EXPIRY_SIZE - maxKeySize;
        return (int) Math.max(0, Math.min(DEFAULT_MAX_VALUE_SIZE, room));
    }

    /** Options with every default. */
    public static BitCaskOptions defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.backend = backend;
        b.segmentBackend = segmentBackend;
        b.segmentSize = segmentSize;
        b.syncPolicy = syncPolicy;
        b.syncInterval = syncInterval;
        b.maxKeySize = maxKeySize;
        b.maxValueSize = maxValueSize;
        b.readOnly = readOnly;
        b.expectedKeys = expectedKeys;
        b.clock = clock;
        b.autoMerge = autoMerge;
        b.mergeDeadRatio = mergeDeadRatio;
        b.mergeDeadBytes = mergeDeadBytes;
        b.mergeBytesPerSecond = mergeBytesPerSecond;
        b.mergePacing = mergePacing;
        b.mergeCheckInterval = mergeCheckInterval;
        b.mergeSegmentDeadRatio = mergeSegmentDeadRatio;
        b.mergeSegmentDeadBytes = mergeSegmentDeadBytes;
        b.mergeSmallSegmentBytes = mergeSmallSegmentBytes;
        b.mergeMaxInputBytes = mergeMaxInputBytes;
        b.maxSpaceAmplification = maxSpaceAmplification;
        b.writeStallTimeout = writeStallTimeout;
        return b;
    }

    /** The backend. */
    public Backend backend() {
        return backend;
    }

    /** The segment backend in use: a test's when set, else the one of {@link #backend()}. */
    SegmentBackend segmentBackend() {
        return segmentBackend != null ? segmentBackend : backend.create();
    }

    /** Size at which the active segment rolls over. */
    public long segmentSize() {
        return segmentSize;
    }

    /** When writes are forced to the device. */
    public SyncPolicy syncPolicy() {
        return syncPolicy;
    }

    /** Interval of the background force under {@link SyncPolicy#INTERVAL}. */
    public Duration syncInterval() {
        return syncInterval;
    }

    /** Largest key in bytes. */
    public int maxKeySize() {
        return maxKeySize;
    }

    /** Largest value in bytes. */
    public int maxValueSize() {
        return maxValueSize;
    }

    /** Largest record this store can write. */
    public int maxRecordSize() {
        return RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + maxKeySize + maxValueSize;
    }

    /** True when the store is opened without the write lock and refuses writes. */
    public boolean readOnly() {
        return readOnly;
    }

    /** Keys the key directory is sized for at open, to avoid growing it while filling. */
    public long expectedKeys() {
        return expectedKeys;
    }

    /** The clock for record timestamps and TTL expiry. */
    public Clock clock() {
        return clock;
    }

    /** True when a background thread merges by itself when the thresholds are crossed. */
    public boolean autoMerge() {
        return autoMerge;
    }

    /** Dead bytes over all data bytes at which automatic merge starts. */
    public double mergeDeadRatio() {
        return mergeDeadRatio;
    }

    /** Dead bytes at which automatic merge starts whatever the ratio. */
    public long mergeDeadBytes() {
        return mergeDeadBytes;
    }

    /** Rate limit for merge copying in bytes per second; 0 means unlimited. */
    public long mergeBytesPerSecond() {
        return mergeBytesPerSecond;
    }

    /** Whether a merge paces its copying by the foreground's latency. */
    public boolean mergePacing() {
        return mergePacing;
    }

    /** Time between automatic merge checks. */
    public Duration mergeCheckInterval() {
        return mergeCheckInterval;
    }

    /** Dead share at which a merge selects a segment (selection, not trigger). */
    public double mergeSegmentDeadRatio() {
        return mergeSegmentDeadRatio;
    }

    /** Dead bytes at which a merge selects a segment whatever its share (selection, not trigger). */
    public long mergeSegmentDeadBytes() {
        return mergeSegmentDeadBytes;
    }

    /** Data bytes under which a segment is small, and folded into a merge that runs anyway (selection). */
    public long mergeSmallSegmentBytes() {
        return mergeSmallSegmentBytes;
    }

    /** Bound on the input data bytes of one selective merge (selection). */
    public long mergeMaxInputBytes() {
        return mergeMaxInputBytes;
    }

    /** Bound on the data bytes, as a multiple of the live bytes plus one segment; infinite for none. */
    public double maxSpaceAmplification() {
        return maxSpaceAmplification;
    }

    /** Longest a put or batch waits at the space bound before it throws. */
    public Duration writeStallTimeout() {
        return writeStallTimeout;
    }

    @Override
    public String toString() {
        return "BitCaskOptions{backend=" + (segmentBackend != null ? segmentBackend : backend)
                + ", segmentSize=" + segmentSize + ", syncPolicy=" + syncPolicy + ", syncInterval=" + syncInterval
                + ", maxKeySize=" + maxKeySize + ", maxValueSize=" + maxValueSize + ", readOnly=" + readOnly
                + ", expectedKeys=" + expectedKeys + ", autoMerge=" + autoMerge + ", mergeDeadRatio=" + mergeDeadRatio
                + ", mergeDeadBytes=" + mergeDeadBytes + ", mergeBytesPerSecond=" + mergeBytesPerSecond
                + ", mergePacing=" + mergePacing + ", mergeSegmentDeadRatio=" + mergeSegmentDeadRatio
                + ", mergeSegmentDeadBytes=" + mergeSegmentDeadBytes + ", mergeSmallSegmentBytes=" + mergeSmallSegmentBytes
                + ", mergeMaxInputBytes=" + mergeMaxInputBytes + ", maxSpaceAmplification=" + maxSpaceAmplification
                + ", writeStallTimeout=" + writeStallTimeout + "}";
    }

    /** Builds {@link BitCaskOptions}; each setter validates its argument at once. */
    public static final class Builder {
        private Backend backend = Backend.defaultBackend();
        private SegmentBackend segmentBackend;
        private long segmentSize = DEFAULT_SEGMENT_SIZE;
        private SyncPolicy syncPolicy = SyncPolicy.NONE;
        private Duration syncInterval = DEFAULT_SYNC_INTERVAL;
        private int maxKeySize = DEFAULT_MAX_KEY_SIZE;
        private int maxValueSize = -1;
        private boolean readOnly;
        private long expectedKeys;
        private Clock clock = Clock.systemUTC();
        private boolean autoMerge = true;
        private double mergeDeadRatio = DEFAULT_MERGE_DEAD_RATIO;
        private long mergeDeadBytes = DEFAULT_MERGE_DEAD_BYTES;
        private long mergeBytesPerSecond;
        private boolean mergePacing = true;
        private Duration mergeCheckInterval = DEFAULT_MERGE_CHECK_INTERVAL;
        private double mergeSegmentDeadRatio = DEFAULT_MERGE_SEGMENT_DEAD_RATIO;
        private long mergeSegmentDeadBytes = DEFAULT_MERGE_SEGMENT_DEAD_BYTES;
        private long mergeSmallSegmentBytes = -1;
        private long mergeMaxInputBytes = DEFAULT_MERGE_MAX_INPUT_BYTES;
        private double maxSpaceAmplification = DEFAULT_MAX_SPACE_AMPLIFICATION;
        private Duration writeStallTimeout = DEFAULT_WRITE_STALL_TIMEOUT;

        private Builder() {
        }

        /**
         * Backend; default {@link Backend#defaultBackend()}: {@code MEMORY_SEGMENT} on JDK 22+, else {@code MAPPED}.
         *
         * @throws IllegalArgumentException when this JVM cannot use it ({@link Backend#available()})
         */
        public Builder backend(Backend backend) {
            Objects.requireNonNull(backend, "backend").requireAvailable();
            this.backend = backend;
            return this;
        }

        /**
         * A segment backend that replaces {@link #backend(Backend)}: the hook through which tests
         * inject faults and power losses. Package-private, as the backend interface is internal;
         * tests outside this package reach it through their own accessor in it. Default none.
         */
        Builder segmentBackend(SegmentBackend segmentBackend) {
            this.segmentBackend = segmentBackend;
            return this;
        }

        /** Segment size in bytes, 64 KiB to 2 GiB - 1; default 64 MiB. */
        public Builder segmentSize(long bytes) {
            if (bytes < MIN_SEGMENT_SIZE || bytes > MAX_SEGMENT_SIZE) {
                throw new IllegalArgumentException("segmentSize must be in [" + MIN_SEGMENT_SIZE + ", " + MAX_SEGMENT_SIZE + "]: " + bytes);
            }
            this.segmentSize = bytes;
            return this;
        }

        /** Sync policy; default {@link SyncPolicy#NONE}. */
        public Builder syncPolicy(SyncPolicy policy) {
            this.syncPolicy = Objects.requireNonNull(policy, "syncPolicy");
            return this;
        }

        /** Interval for {@link SyncPolicy#INTERVAL}, at least 1 ms; default 1 s. */
        public Builder syncInterval(Duration interval) {
            Objects.requireNonNull(interval, "syncInterval");
            if (interval.toMillis() < 1) {
                throw new IllegalArgumentException("syncInterval must be at least 1 ms: " + interval);
            }
            this.syncInterval = interval;
            return this;
        }

        /** Largest key in bytes, 1 to 65535; default 1024. */
        public Builder maxKeySize(int bytes) {
            if (bytes < 1 || bytes > RecordFormat.MAX_KEY_LENGTH) {
                throw new IllegalArgumentException("maxKeySize must be in [1, " + RecordFormat.MAX_KEY_LENGTH + "]: " + bytes);
            }
            this.maxKeySize = bytes;
            return this;
        }

        /** Largest value in bytes, 0 or more; default 16 MiB or what fits in a segment. */
        public Builder maxValueSize(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("maxValueSize must not be negative: " + bytes);
            }
            this.maxValueSize = bytes;
            return this;
        }

        /** Open without the write lock; every write throws. Default false. */
        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        /** Keys to size the key directory for at open; default 0 (it grows as needed). */
        public Builder expectedKeys(long keys) {
            if (keys < 0 || keys > KeyDir.MAX_KEYS) {
                throw new IllegalArgumentException("expectedKeys must be in [0, " + KeyDir.MAX_KEYS
                        + "], what one key directory holds: " + keys);
            }
            this.expectedKeys = keys;
            return this;
        }

        /** Clock for timestamps and TTL; default the UTC system clock. Tests inject their own. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Merge in the background when a trigger threshold is crossed, and hold writes to what merges
         * reclaim once the data nears its bound ({@link #maxSpaceAmplification}); default true. The trigger
         * ({@link #mergeDeadRatio}, {@link #mergeDeadBytes}, {@link #mergeCheckInterval}) says when a
         * merge runs; the selection ({@link #mergeSegmentDeadRatio}, {@link #mergeSegmentDeadBytes},
         * {@link #mergeSmallSegmentBytes}, {@link #mergeMaxInputBytes}) says which segments it takes. Off,
         * nothing is reclaimed unless the application calls {@link BitCask#merge()}, and writes are never held.
         */
        public Builder autoMerge(boolean autoMerge) {
            this.autoMerge = autoMerge;
            return this;
        }

        /** Trigger: the store's dead share, in (0, 1], that starts an automatic merge; default 0.25 ({@link #DEFAULT_MERGE_DEAD_RATIO}). */
        public Builder mergeDeadRatio(double ratio) {
            if (!(ratio > 0 && ratio <= 1)) {
                throw new IllegalArgumentException("mergeDeadRatio must be in (0, 1]: " + ratio);
            }
            this.mergeDeadRatio = ratio;
            return this;
        }

        /** Trigger: the store's dead bytes that start an automatic merge whatever the ratio; default 512 MiB. */
        public Builder mergeDeadBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("mergeDeadBytes must be positive: " + bytes);
            }
            this.mergeDeadBytes = bytes;
            return this;
        }

        /** Merge copy rate limit in bytes per second, 0 for none; default 0. */
        public Builder mergeBytesPerSecond(long bytesPerSecond) {
            if (bytesPerSecond < 0) {
                throw new IllegalArgumentException("mergeBytesPerSecond must not be negative: " + bytesPerSecond);
            }
            this.mergeBytesPerSecond = bytesPerSecond;
            return this;
        }

        /**
         * Whether a merge paces its copying by the latency of the reads and writes running beside it;
         * default true. A paced merge rests between short slices of copying while they run more than a
         * quarter slower than during its rests, up to seven slices' rest per slice; with an idle
         * foreground (fewer than eight sampled operations over eight slices) it copies flat out. The time
         * rested is {@link io.caskbench.bitcask.MergeResult#restedMillis()}. Off, only
         * {@link #mergeBytesPerSecond} limits it.
         */
        public Builder mergePacing(boolean paced) {
            this.mergePacing = paced;
            return this;
        }

        /**
         * Selection: the dead share, in (0, 1], at which a merge takes a segment; default 0.25
         * ({@link #DEFAULT_MERGE_SEGMENT_DEAD_RATIO}, which gives the reasoning).
         */
        public Builder mergeSegmentDeadRatio(double ratio) {
            if (!(ratio > 0 && ratio <= 1)) {
                throw new IllegalArgumentException("mergeSegmentDeadRatio must be in (0, 1]: " + ratio);
            }
            this.mergeSegmentDeadRatio = ratio;
            return this;
        }

        /** Selection: the dead bytes at which a merge takes a segment whatever its share; default 128 MiB. */
        public Builder mergeSegmentDeadBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("mergeSegmentDeadBytes must be positive: " + bytes);
            }
            this.mergeSegmentDeadBytes = bytes;
            return this;
        }

        /**
         * Selection: segments with fewer data bytes than this are folded into a merge that runs
         * anyway (and two or more of them with a dead byte make one run); 0 folds none. Default a
         * quarter of the segment size: copying one costs at most a quarter of a segment, and every
         * four folded give back at least three files. Each merge seals the active segment, so
         * without folding small segments would pile up.
         */
        public Builder mergeSmallSegmentBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("mergeSmallSegmentBytes must not be negative: " + bytes);
            }
            this.mergeSmallSegmentBytes = bytes;
            return this;
        }

        /**
         * Selection: the most data bytes one selective merge reads; default 1 GiB. It bounds a merge's
         * time, and the free space it needs, whatever the size of the store; the first segment selected
         * is taken even when it alone is larger.
         */
        public Builder mergeMaxInputBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("mergeMaxInputBytes must be positive: " + bytes);
            }
            this.mergeMaxInputBytes = bytes;
            return this;
        }

        /**
         * Trigger: the longest time between automatic merge checks; default 10 s. The store also looks at
         * the trigger every few milliseconds from the figures it keeps in memory; this check is the
         * fallback, for what those figures cannot see.
         */
        public Builder mergeCheckInterval(Duration interval) {
            Objects.requireNonNull(interval, "mergeCheckInterval");
            if (interval.toMillis() < 1) {
                throw new IllegalArgumentException("mergeCheckInterval must be at least 1 ms: " + interval);
            }
            this.mergeCheckInterval = interval;
            return this;
        }

        /**
         * The space bound: the segments' data bytes (every record, live or dead; hint files aside) may reach
         * this many times the live bytes, plus one segment for the one being written; default 2. Only with
         * {@link #autoMerge}: past a soft limit halfway from where automatic merges start to the bound, puts
         * and batches are delayed to the rate merges reclaim at, and merges run without resting for the
         * foreground; at the bound they wait for a merge, up to {@link #writeStallTimeout}. Deletes and merges
         * never wait. Over 1; {@link Double#POSITIVE_INFINITY} for no bound and no stalls. Keep it above
         * 1 / (1 - {@link #mergeDeadRatio}), or puts wait where merges only start.
         */
        public Builder maxSpaceAmplification(double amplification) {
            if (!(amplification > 1)) {
                throw new IllegalArgumentException("maxSpaceAmplification must be over 1: " + amplification);
            }
            this.maxSpaceAmplification = amplification;
            return this;
        }

        /**
         * How long a put or batch waits at the space bound for a merge to make room before it throws
         * {@link BitCaskException}, which names the bound and the figures; at least 1 ms, default 60 s.
         */
        public Builder writeStallTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "writeStallTimeout");
            if (timeout.toMillis() < 1) {
                throw new IllegalArgumentException("writeStallTimeout must be at least 1 ms: " + timeout);
            }
            this.writeStallTimeout = timeout;
            return this;
        }

        /**
         * Builds the options.
         *
         * @throws IllegalArgumentException when the largest record would not fit in a segment
         */
        public BitCaskOptions build() {
            return new BitCaskOptions(this);
        }
    }
}
