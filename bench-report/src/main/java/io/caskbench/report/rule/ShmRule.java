package io.caskbench.report.rule;

import io.caskbench.report.input.JmhResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference rule of bench-shm: every Java variant against the C program doing the same work.
 *
 * <p>The C anchors ({@code shm-c.json}) are named {@code io.caskbench.shm.c.RegionAnchor.<op>} with
 * the operation as method ({@code write}, {@code writeLibcRand}, {@code clear}, {@code prng}) and
 * params {@code backing} ({@code disk}, {@code shm}, {@code shmget}, {@code anon}) and {@code region}.
 * The Java benchmarks are {@code RandomWriteBench}, {@code ClearBench}, {@code HeapArrayBench} and
 * {@code PrngBench}, one method per variant, with params {@code backing} ({@code disk}, {@code shm},
 * {@code direct}, {@code heap}) and {@code region}.
 *
 * <p>Pairing, as bench-shm's own ratio table does it: a mapped disk file against C on a mapped disk
 * file, a /dev/shm file against C on a /dev/shm file, and direct buffers, heap buffers and byte[]
 * against C on anonymous memory. Charts put C and Java side by side per operation.
 */
public final class ShmRule implements ReferenceRule {

    /** Package of the C anchors' benchmark names. */
    public static final String C_PREFIX = "io.caskbench.shm.c.";

    private static final String LIBC_LOOP = "writeLibcRand";

    @Override
    public String suite() {
        return "shm";
    }

    @Override
    public String description() {
        return "ratio = Java time / C time (shm-c.json) for the same operation and region: mapped disk and "
                + "/dev/shm files against C on the same kind of file; direct, heap and byte[] against C on "
                + "anonymous memory";
    }

    /** Bar groups in this order, so C on anonymous memory stands next to the Java buffers it anchors. */
    private static final List<String> BACKING_ORDER = List.of("disk", "shm", "shmget", "direct", "heap", "byte[]", "anon");

    @Override
    public String group(JmhResult r) {
        String region = r.params().getOrDefault("region", "");
        String op;
        switch (op(r)) {
            case "write":
                op = "RandomWrite";
                break;
            case "clear":
                op = "Clear";
                break;
            case "prng":
                op = "Prng";
                break;
            default:
                op = ReferenceRule.simpleClassName(r);
        }
        return region.isEmpty() ? op : op + " " + region;
    }

    @Override
    public int variantOrder(JmhResult r) {
        if (isC(r)) {
            return isReference(r) ? 0 : 1;
        }
        String v = variant(r);
        return v.startsWith("seed") ? 2 : v.equals("byte[]") ? 4 : 3;
    }

    @Override
    public int categoryOrder(JmhResult r) {
        int i = BACKING_ORDER.indexOf(categoryParams(r).getOrDefault("backing", ""));
        return i < 0 ? BACKING_ORDER.size() : i;
    }

    @Override
    public String variant(JmhResult r) {
        if (isC(r)) {
            return LIBC_LOOP.equals(r.methodName()) ? "C rand()+memcpy (seed loop)" : "C";
        }
        return ReferenceRule.simpleClassName(r).equals("HeapArray") ? "byte[]" : r.methodName();
    }

    @Override
    public String categoryPrefix(JmhResult r) {
        return "";
    }

    @Override
    public Map<String, String> categoryParams(JmhResult r) {
        Map<String, String> p = new LinkedHashMap<>(r.params());
        p.remove("region");
        if ("prng".equals(op(r))) {
            // The generator does not touch the region's memory: only its size matters.
            p.remove("backing");
        } else if (!p.containsKey("backing")) {
            p.put("backing", "byte[]");
        }
        return p;
    }

    @Override
    public String workload(JmhResult r) {
        String op = op(r);
        String region = r.params().getOrDefault("region", "");
        return "prng".equals(op) ? op + "|" + region : op + "|" + region + "|" + cBacking(r);
    }

    @Override
    public boolean isReference(JmhResult r) {
        return isC(r) && !LIBC_LOOP.equals(r.methodName());
    }

    private static boolean isC(JmhResult r) {
        return r.benchmark().startsWith(C_PREFIX);
    }

    /** The operation: write, clear or prng, whether the row is Java or C. */
    private static String op(JmhResult r) {
        if (isC(r)) {
            return LIBC_LOOP.equals(r.methodName()) ? "write" : r.methodName();
        }
        switch (ReferenceRule.simpleClassName(r)) {
            case "RandomWrite":
                return "write";
            case "Clear":
                return "clear";
            case "Prng":
                return "prng";
            case "HeapArray":
                return r.methodName().contains("Fill") ? "clear" : "write";
            default:
                return ReferenceRule.simpleClassName(r);
        }
    }

    /** The C backing a row is compared with. */
    private static String cBacking(JmhResult r) {
        String b = r.params().getOrDefault("backing", "");
        if (isC(r)) {
            return b;
        }
        return b.equals("disk") || b.equals("shm") ? b : "anon";
    }
}
