package io.caskbench.bitcask.log;

/**
 * Threading: each thread has its own buffers.
 *
 * <p>Per-thread buffers for the put and get paths, so that neither allocates per call.
 */
final class Scratch {

    /** Larger per-thread buffers are not kept, so 1000 threads cannot pin 1000 large arrays. */
    static final int KEEP = 64 << 10;
    /** Per-thread buffer a get reads its record into. */
    static final ThreadLocal<byte[]> READ = ThreadLocal.withInitial(() -> new byte[512]);
    /** Per-thread buffer a put is encoded in before it takes the write lock. */
    static final ThreadLocal<byte[]> WRITE = ThreadLocal.withInitial(() -> new byte[512]);

    private Scratch() {
    }

    /** This thread's buffer from {@code cache}, grown to {@code len}; a fresh array above {@link #KEEP}. */
    static byte[] of(ThreadLocal<byte[]> cache, int len) {
        if (len > KEEP) {
            return new byte[len];
        }
        byte[] b = cache.get();
        if (b.length < len) {
            b = new byte[Math.max(len, Math.min(b.length * 2, KEEP))];
            cache.set(b);
        }
        return b;
    }
}
