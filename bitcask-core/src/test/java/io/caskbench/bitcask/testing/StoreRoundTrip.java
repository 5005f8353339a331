package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * A child JVM's whole life with a store: open, write past a rollover, overwrite, merge (which
 * closes and unmaps segments), read back, close, reopen, read again. Exits non-zero on a wrong
 * value. Arguments: the store directory and the backend.
 */
public final class StoreRoundTrip {

    private StoreRoundTrip() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        BitCaskOptions options = BitCaskOptions.builder().backend(Backend.valueOf(args[1])).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, options)) {
            for (int round = 0; round < 3; round++) {
                for (int k = 0; k < 300; k++) {
                    db.put("k" + k, value(k, round));
                }
            }
            db.merge();
            check(db, 2);
        }
        try (BitCask db = BitCask.open(dir, options)) {
            check(db, 2);
        }
        System.out.println("DONE");
    }

    private static byte[] value(int key, int round) {
        return Bytes.filled(400, key * 3 + round);
    }

    private static void check(BitCask db, int round) {
        for (int k = 0; k < 300; k++) {
            if (!Arrays.equals(db.get("k" + k), value(k, round))) {
                throw new IllegalStateException("wrong value for k" + k);
            }
        }
    }
}
