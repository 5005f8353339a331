package io.caskbench.bitcask;

import java.nio.file.Path;
import java.util.List;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>What {@link BitCask#repair} planned, and did when asked to. A repair applies recovery's own rules
 * explicitly and offline: it cuts the torn tail of the newest segment, rewrites missing, unusable,
 * stale or wrong hint files from their (forced) data, restores a damaged header copy from the
 * intact one, and deletes temporary files and hints without data. It never rewrites a record:
 * corrupt records stay where they are (open skips them; a merge drops them), and a file whose
 * header cannot be read is left for a person to look at. A hint it rewrites keeps every record that
 * checks on its own, the members of a damaged batch the old hint listed included, so every key that
 * reads before the repair reads the same after it; each entry it leaves out is named in its action.
 *
 * @param before          what verify found first
 * @param actions         the changes, in the order they are (or would be) made
 * @param unrepaired      findings that no action addresses
 * @param applied         true when the actions were carried out; false for a dry run
 * @param backupDirectory where every file an action changes was copied first; null on a dry run, and
 *                        when the actions only create files
 * @param after           what verify found after the actions, or null on a dry run
 */
public record RepairReport(VerifyReport before, List<Action> actions, List<VerifyReport.Finding> unrepaired,
                           boolean applied, Path backupDirectory, VerifyReport after) {

    /** A kind of change. */
    public enum ActionKind {
        /** Delete the file. */
        DELETE,
        /** Cut the file at the offset. */
        TRUNCATE,
        /** Write the file header again: from its intact copy, or, for a file that holds no record, anew. */
        REWRITE_HEADER,
        /** Force the data file, then write its hint file from a scan of it. */
        WRITE_HINT
    }

    /**
     * One change.
     *
     * @param kind    what is done
     * @param file    the file it changes
     * @param offset  where a truncation cuts, else -1
     * @param reason  why
     * @param leftOut for a {@link ActionKind#WRITE_HINT} over a usable hint: each entry of it that the new
     *                hint leaves out, as the record it lists fails its check; empty otherwise
     */
    public record Action(ActionKind kind, Path file, long offset, String reason, List<LeftOut> leftOut) {

        /** An action with nothing left out. */
        public Action(ActionKind kind, Path file, long offset, String reason) {
            this(kind, file, offset, reason, List.of());
        }

        /** Copies {@code leftOut}. */
        public Action {
            leftOut = List.copyOf(leftOut);
        }
    }

    /**
     * An entry of a usable hint file that its rewrite leaves out, as the record it lists fails its
     * check. Before the repair a read of the key throws (or, for a delete, finds it absent); after it,
     * the key reads as absent, or at an older value (for a batch member, a value from before the
     * batch; for a delete, the value it deleted). No record that checks is ever left out.
     *
     * @param key    the key, as the hint lists it (the array is the report's: do not change it)
     * @param offset where the record lies in the data file
     * @param delete true when the record is a delete
     */
    public record LeftOut(byte[] key, long offset, boolean delete) {
    }

    /** True when the repair leaves (or, on a dry run, would leave) nothing for verify to find. */
    public boolean complete() {
        return unrepaired.isEmpty() && (after == null || after.clean());
    }
}
