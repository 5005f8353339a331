package io.caskbench.report.rule;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The per-suite reference rules, in one place. Adapting the report to a suite that names its
 * variants differently means changing one line here (and the table in docs/report.md).
 */
public final class Suites {

    /** store.json: BitCask on its MAPPED backend is the reference for every peer and the other backend. */
    public static final ReferenceRule STORE = new ParamRule("store",
            "ratio = score / BitCask MAPPED with the same operation and parameters (param backend=MAPPED or store=BITCASK_MAPPED)",
            List.of("backend", "store"), false,
            Pattern.compile("^(?i:(bitcask[_-]?)?mapped)$"));

    /** files.json: the buffered stream read is the reference for every other reader. */
    public static final ReferenceRule FILES = new ParamRule("files",
            "ratio = score / the buffered-stream reader with the same parameters (method or param reader matching "
                    + "buffered; for random chunk reads, RandomAccessFile)",
            List.of("reader"), true,
            Pattern.compile("(?i)buffered|randomaccessfile"));

    /** shm.json + shm-c.json: the C program doing the same work is the reference for every Java variant. */
    public static final ReferenceRule SHM = new ShmRule();

    /** shm-messaging.json: UDP on loopback is what shared memory would replace, so it is the reference. */
    public static final ReferenceRule SHM_MESSAGING = new ParamRule("shm-messaging",
            "ratio = score / the same exchange (same peer and payload) over UDP on loopback (param transport=udp)",
            List.of("transport"), false,
            Pattern.compile("(?i)^udp$"));

    /** Known rules in report order; exact names are matched before prefixes, so order matters only for display. */
    private static final List<ReferenceRule> KNOWN = List.of(STORE, FILES, SHM, SHM_MESSAGING);

    private Suites() {
    }

    /** Position of a suite in the report: known suites in a fixed order, unknown ones after them. */
    public static int order(String suite) {
        for (int i = 0; i < KNOWN.size(); i++) {
            if (KNOWN.get(i).suite().equals(suite)) {
                return i;
            }
        }
        return KNOWN.size();
    }

    /**
     * The rule for a results file: an exact name match first ({@code shm-messaging}), then the suite
     * prefix before the first '-' ({@code shm-c} belongs to {@code shm}); unknown files get a rule
     * without reference, named after the file, so they still render.
     */
    public static ReferenceRule ruleFor(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        // Exact names first: shm-messaging has its own rule although it starts with "shm-".
        for (ReferenceRule r : KNOWN) {
            if (r.suite().equals(n)) {
                return r;
            }
        }
        int dash = n.indexOf('-');
        String prefix = dash < 0 ? n : n.substring(0, dash);
        for (ReferenceRule r : KNOWN) {
            if (r.suite().equals(prefix)) {
                return r;
            }
        }
        return ParamRule.scoresOnly(n);
    }
}
