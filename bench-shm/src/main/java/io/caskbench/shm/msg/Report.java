package io.caskbench.shm.msg;

/**
 * What a peer says when it stops: {@code DONE received=<n> lost=<n> errors=<n>}.
 *
 * @param received data messages taken (the stop message not counted)
 * @param lost sequence numbers skipped (only UDP may lose messages; over shared memory it is an error)
 * @param errors messages out of order, duplicated, of the wrong length or with a torn payload
 */
public record Report(long received, long lost, long errors) {

    /** The line a peer prints. */
    String line() {
        return "DONE received=" + received + " lost=" + lost + " errors=" + errors;
    }

    /** Parses {@link #line()}. */
    static Report parse(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length != 4 || !f[0].equals("DONE")) {
            throw new IllegalArgumentException("not a report: " + line);
        }
        return new Report(value(f[1], "received"), value(f[2], "lost"), value(f[3], "errors"));
    }

    private static long value(String field, String name) {
        if (!field.startsWith(name + "=")) {
            throw new IllegalArgumentException("expected " + name + " in " + field);
        }
        return Long.parseLong(field.substring(name.length() + 1));
    }

    /** Counts messages as a peer receives them. */
    static final class Tally {
        private long expected;
        private long received;
        private long lost;
        private long errors;

        /** Accounts for message {@code seq}; {@code intact} says whether its length and payload checked out. */
        void count(long seq, boolean intact) {
            received++;
            if (seq > expected) {
                lost += seq - expected;
            } else if (seq < expected) {
                errors++;
            }
            expected = Math.max(expected, seq + 1);
            if (!intact) {
                errors++;
            }
        }

        /** The highest sequence number seen so far, or -1. */
        long highest() {
            return expected - 1;
        }

        /** How many messages have been counted. */
        long received() {
            return received;
        }

        Report report() {
            return new Report(received, lost, errors);
        }
    }
}
