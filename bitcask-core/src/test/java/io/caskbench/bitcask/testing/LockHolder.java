package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskLockedException;

import java.nio.file.Path;

/** Child JVM for the lock test: tries to open a store and reports what happened. */
public final class LockHolder {

    private LockHolder() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String mode = args[1];
        try (BitCask db = BitCask.open(dir)) {
            System.out.println("OPENED");
            System.out.flush();
            if ("hold".equals(mode)) {
                System.in.read(); // hold the lock until the parent closes our stdin
            }
        } catch (BitCaskLockedException e) {
            System.out.println("LOCKED " + e.getMessage());
        }
        System.out.flush();
    }
}
