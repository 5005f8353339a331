package io.caskbench.shm;

import io.caskbench.shm.msg.Messaging;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;

/**
 * The tables a bench-shm run ends with: Java against C for random writes and clears, and shared memory
 * against UDP for messaging. Ratios are Java/C (1.00 = as fast as C) and UDP/shm latency.
 */
public final class RatioTable {

    private static final String W = "io.caskbench.shm.RandomWriteBench.";
    private static final String CL = "io.caskbench.shm.ClearBench.";
    private static final String H = "io.caskbench.shm.HeapArrayBench.";
    private static final String P = "io.caskbench.shm.PrngBench.";
    private static final String C = CAnchors.PREFIX;

    /** Java rows of a table: label, Java backing (null: the byte[] baseline) and the C backing set against it. */
    private record Row(String label, String javaBacking, String cBacking) {
    }

    private static final List<Row> ROWS = List.of(
            new Row("disk file, mapped", "disk", "disk"),
            new Row("/dev/shm file, mapped", "shm", "shm"),
            new Row("shmget (C only)", "", "shmget"),
            new Row("direct / C anonymous", "direct", "anon"),
            new Row("heap BB / C anonymous", "heap", "anon"),
            new Row("byte[] / C anonymous", null, "anon"));

    private final Map<String, RunResult> byKey = new HashMap<>();

    private RatioTable(Collection<RunResult> results) {
        for (RunResult r : results) {
            byKey.put(key(r.getParams().getBenchmark(), paramsOf(r)), r);
        }
    }

    /** Renders all three tables from whatever results there are; missing cells print as "-". */
    public static String render(Collection<RunResult> java, Collection<RunResult> c, Collection<RunResult> messaging,
                                List<String> regions) {
        List<RunResult> all = new ArrayList<>(java);
        all.addAll(c);
        all.addAll(messaging);
        RatioTable t = new RatioTable(all);
        StringBuilder out = new StringBuilder();
        for (String region : regions) {
            t.writes(out, region);
            t.clears(out, region);
        }
        t.messaging(out);
        return out.toString();
    }

    /** Java variants (method name to column title), in column order. */
    private static final Map<String, String> WRITE_VARIANTS = ordered(
            "seedGetPut", "seed get+put", "absolutePut", "put(i,b)", "varHandleWord", "VarHandle",
            "segmentSet", "segment");
    private static final Map<String, String> CLEAR_VARIANTS = ordered(
            "seedNewArray", "seed new[]", "reusedZeroArray", "reused[]", "putLongLoop", "putLong",
            "segmentFill", "seg.fill");

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    private void writes(StringBuilder out, String region) {
        out.append(String.format(Locale.ROOT, "%nRandom 1-byte write, region %s, ns per write "
                        + "(PRNG alone: Java %s, C %s; the seed's loops: Java Random.nextInt alone %s, C rand()+memcpy write on shm %s)%n",
                region, ns(score(P + "xorshift", region, null)), ns(score(C + "prng", region, "anon")),
                ns(score(P + "jdkRandom", region, null)), ns(score(C + "writeLibcRand", region, "shm"))));
        table(out, region, WRITE_VARIANTS, "C write", C + "write", W, H + "arrayStore", 1);
    }

    private void clears(StringBuilder out, String region) {
        out.append(String.format(Locale.ROOT, "%nClear whole region, region %s, us per clear%n", region));
        table(out, region, CLEAR_VARIANTS, "C memset", C + "clear", CL, H + "arrayFill", 1000);
    }

    /** One Java-vs-C table; {@code divisor} turns nanoseconds into the table's unit. */
    private void table(StringBuilder out, String region, Map<String, String> java, String cTitle, String cName,
                       String javaPrefix, String arrayName, double divisor) {
        out.append(String.format(Locale.ROOT, "%-24s %10s", "backing", cTitle));
        java.values().forEach(v -> out.append(String.format(Locale.ROOT, " %12s", v)));
        out.append(String.format(Locale.ROOT, " %12s  %s%n", "byte[]", "closest Java/C"));
        for (Row row : ROWS) {
            Double c = score(cName, region, row.cBacking());
            out.append(String.format(Locale.ROOT, "%-24s %10s", row.label(), num(c, divisor)));
            String bestName = null;
            double best = Double.MAX_VALUE;
            for (String method : java.keySet()) {
                Double j = row.javaBacking() == null || row.javaBacking().isEmpty() ? null
                        : score(javaPrefix + method, region, row.javaBacking());
                out.append(String.format(Locale.ROOT, " %12s", num(j, divisor)));
                if (j != null && j < best) {
                    best = j;
                    bestName = java.get(method);
                }
            }
            Double array = row.javaBacking() == null ? score(arrayName, region, null) : null;
            out.append(String.format(Locale.ROOT, " %12s", num(array, divisor)));
            if (array != null) {
                best = array;
                bestName = "byte[]";
            }
            out.append(bestName != null && c != null
                    ? String.format(Locale.ROOT, "  %s %.2fx%n", bestName, best / c) : String.format("  -%n"));
        }
    }

    private void messaging(StringBuilder out) {
        out.append(String.format(Locale.ROOT, "%nMessaging, Java client: round trip (us) and one-way (msgs/s)%n"));
        out.append(String.format(Locale.ROOT, "%-6s %7s %9s %9s %9s %9s %8s %12s %12s %8s%n", "peer", "payload",
                "shm p50", "udp p50", "shm p99", "udp p99", "udp/shm", "shm msg/s", "udp msg/s", "shm/udp"));
        for (String peer : List.of("java", "c")) {
            for (int payload : Messaging.PAYLOADS) {
                RunResult shm = msg(Messaging.ROUND_TRIP, "shm", peer, payload);
                RunResult udp = msg(Messaging.ROUND_TRIP, "udp", peer, payload);
                RunResult shmTp = msg(Messaging.ONE_WAY, "shm", peer, payload);
                RunResult udpTp = msg(Messaging.ONE_WAY, "udp", peer, payload);
                if (shm == null && udp == null && shmTp == null && udpTp == null) {
                    continue;
                }
                Double s50 = pct(shm, 50);
                Double u50 = pct(udp, 50);
                Double sTp = shmTp == null ? null : shmTp.getPrimaryResult().getScore();
                Double uTp = udpTp == null ? null : udpTp.getPrimaryResult().getScore();
                out.append(String.format(Locale.ROOT, "%-6s %7d %9s %9s %9s %9s %8s %12s %12s %8s%n", peer, payload,
                        num(s50, 1), num(u50, 1), num(pct(shm, 99), 1), num(pct(udp, 99), 1),
                        ratio(u50, s50), num(sTp, 1), num(uTp, 1), ratio(sTp, uTp)));
            }
        }
    }

    private RunResult msg(String name, String transport, String peer, int payload) {
        Map<String, String> p = new TreeMap<>();
        p.put("transport", transport);
        p.put("peer", peer);
        p.put("payload", Integer.toString(payload));
        return byKey.get(key(name, p));
    }

    private static Double pct(RunResult r, double p) {
        return r == null ? null : r.getPrimaryResult().getStatistics().getPercentile(p);
    }

    private Double score(String name, String region, String backing) {
        Map<String, String> p = new TreeMap<>();
        p.put("region", region);
        if (backing != null) {
            p.put("backing", backing);
        }
        RunResult r = byKey.get(key(name, p));
        return r == null ? null : r.getPrimaryResult().getScore();
    }

    private static Map<String, String> paramsOf(RunResult r) {
        Map<String, String> p = new TreeMap<>();
        for (String k : r.getParams().getParamsKeys()) {
            p.put(k, r.getParams().getParam(k));
        }
        return p;
    }

    private static String key(String benchmark, Map<String, String> params) {
        return benchmark + new TreeMap<>(params);
    }

    private static String ns(Double v) {
        return num(v, 1);
    }

    private static String num(Double v, double divisor) {
        if (v == null) {
            return "-";
        }
        double x = v / divisor;
        return String.format(Locale.ROOT, x >= 1000 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f", x);
    }

    private static String ratio(Double a, Double b) {
        return a == null || b == null ? "-" : String.format(Locale.ROOT, "%.2fx", a / b);
    }
}
