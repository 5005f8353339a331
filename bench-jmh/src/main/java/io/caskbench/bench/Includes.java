package io.caskbench.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Combines a suite's own include patterns (any may match) with the user's filters (all must match) into
 * patterns JMH understands. JMH only ORs its includes, so each user filter becomes a lookahead.
 */
final class Includes {

    private Includes() {
    }

    /** Patterns matching a benchmark name that matches one of {@code suite} and all of {@code filters}. */
    static List<String> intersect(List<String> suite, List<String> filters) {
        List<String> base = suite.isEmpty() ? List.of(".*") : suite;
        if (filters.isEmpty()) {
            return base;
        }
        StringBuilder lookaheads = new StringBuilder("^");
        for (String filter : filters) {
            lookaheads.append("(?=.*(?:").append(filter).append("))");
        }
        List<String> combined = new ArrayList<>();
        for (String include : base) {
            combined.add(lookaheads + ".*(?:" + include + ")");
        }
        return combined;
    }
}
