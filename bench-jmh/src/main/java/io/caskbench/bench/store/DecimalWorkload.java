package io.caskbench.bench.store;

import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The db_bench-style workload parameters every store benchmark but the seed's shares: 16-byte decimal
 * keys, fixed-size random values, a visiting order. The defaults are the point the performance targets
 * are stated at (1M keys, 100-byte values, random order); the suite sets each run's grid explicitly.
 * The fixtures read the parameters through {@code BenchmarkParams} (see {@link WorkloadSpec}).
 * Subclasses may narrow the state scope; JMH takes the nearest {@code @State}.
 */
@State(Scope.Thread)
public abstract class DecimalWorkload extends StoreBenchmark {

    /** Distinct keys. */
    @Param("1000000")
    public int keyCount;

    /** Value length in bytes. */
    @Param("100")
    public int valueSize;

    /** Key visiting order. */
    @Param("RANDOM")
    public KeyOrder order;

    private int cursor;
    private byte[] keyBuffer;

    /** Gets the key after the one this benchmark instance read last, wrapping at the end of the order. */
    protected byte[] readNext(FilledStore filled) {
        Workload workload = filled.workload();
        byte[] buffer = keyBuffer;
        if (buffer == null) {
            buffer = keyBuffer = workload.keyBuffer();
        }
        int position = cursor;
        cursor = position + 1 == workload.keyCount() ? 0 : position + 1;
        return Reads.get(filled.store(), workload, position, buffer);
    }

    /** Starts this instance's reads at {@code position} instead of the first key. */
    protected void startAt(int position) {
        cursor = position;
    }
}
