package io.caskbench.bench.openloop;

import java.util.Locale;

/** The kind of one driven operation; each kind has a latency histogram of its own. */
public enum OpType {
    /** A read. */
    GET,
    /** A write. */
    PUT;

    /** The kind's name as a metric prefix: {@code get}, {@code put}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
