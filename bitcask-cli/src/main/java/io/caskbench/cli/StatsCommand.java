package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.ProgressListener;
import io.caskbench.bitcask.VerifyReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** {@code bitcask stats DIR}: sizes, fragmentation and hint coverage, read-only. */
@Command(name = "stats", description = {
        "Keys, live and dead bytes, a per-segment table, hint coverage, index bytes and the format version.",
        "Opens the store read-only, so it works beside a running writer."})
final class StatsCommand extends StoreCommand {

    @Option(names = "--json", description = "Print the figures as JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        BitCaskStats stats;
        try (BitCask db = Stores.openReadOnly(dir)) {
            stats = db.stats();
        }
        VerifyReport files = BitCask.verify(dir, VerifyReport.Depth.FILES, ProgressListener.NONE);
        Map<Long, VerifyReport.SegmentReport> byId = new HashMap<>();
        files.segments().forEach(s -> byId.put(s.id(), s));
        long size = files.segments().stream().mapToLong(VerifyReport.SegmentReport::size).sum();
        // Coverage is of the data bytes: the file a writer appends to is preallocated, so its size says nothing.
        long data = stats.liveBytes() + stats.deadBytes();
        long hinted = stats.segments().stream().mapToLong(s -> hinted(byId.get(s.id()), s)).sum();
        long hintedSegments = files.segments().stream().filter(s -> s.hint() == VerifyReport.HintState.USABLE).count();
        if (json) {
            try (JsonGenerator g = Reports.json(out())) {
                json(g, stats, files, byId, size, hinted);
            }
            out().println();
            return BitCaskCli.OK;
        }
        PrintWriter out = out();
        out.printf("store       %s%n", files.directory());
        out.printf("format      version %d%n", files.formatVersion());
        out.printf("keys        %s%n", Reports.count(stats.keyCount()));
        out.printf("live bytes  %s (%s)%n", Reports.size(stats.liveBytes()), Reports.count(stats.liveBytes()));
        out.printf(Locale.ROOT, "dead bytes  %s (%s), %.1f%% of record bytes: what a merge reclaims%n",
                Reports.size(stats.deadBytes()), Reports.count(stats.deadBytes()), 100 * stats.deadRatio());
        out.printf("segments    %d, %s on disk with their hints%n", stats.segmentCount(), Reports.size(stats.diskBytes()));
        out.printf("index       %s of heap%n", Reports.size(stats.indexBytes()));
        out.printf(Locale.ROOT, "hints       %d of %d data files; they list %.1f%% of the data bytes, which open need not scan%n",
                hintedSegments, files.segments().size(), data == 0 ? 100.0 : 100.0 * hinted / data);
        out.printf("writer      %s%n", files.liveWriter() ? "a writer holds the directory" : "none");
        if (!files.clean()) {
            out.printf("files       %s in headers and hints; 'bitcask verify %s' tells more%n",
                    Reports.count(files.findings().size(), "finding", "findings"), files.directory());
        }
        out.println();
        out.printf("%-12s %12s %12s %12s %7s  %s%n", "segment", "data bytes", "live bytes", "dead bytes", "dead", "hint");
        for (BitCaskStats.SegmentStats s : stats.segments()) {
            VerifyReport.SegmentReport f = byId.get(s.id());
            out.printf(Locale.ROOT, "%-12s %12s %12s %12s %6.1f%%  %s%n", String.format("%09d", s.id()) + (f != null && f.newest() ? "*" : ""),
                    Reports.count(s.dataBytes()), Reports.count(s.liveBytes()), Reports.count(s.deadBytes()),
                    s.dataBytes() == 0 ? 0.0 : 100.0 * s.deadBytes() / s.dataBytes(), hint(f, s));
        }
        out.println("(* the newest segment, which a writer appends to)");
        return BitCaskCli.OK;
    }

    /** Bytes of the segment's records that its hint lists, so that open need not scan them. */
    private static long hinted(VerifyReport.SegmentReport f, BitCaskStats.SegmentStats s) {
        return f == null ? 0 : Math.min(f.hintedRecordBytes(), s.dataBytes());
    }

    private static String hint(VerifyReport.SegmentReport f, BitCaskStats.SegmentStats s) {
        if (f == null) {
            return "-";
        }
        return switch (f.hint()) {
            case USABLE -> hinted(f, s) >= s.dataBytes() ? "complete"
                    : String.format(Locale.ROOT, "lists %.1f%%", 100.0 * hinted(f, s) / s.dataBytes());
            case MISSING -> "missing";
            case UNUSABLE, WRONG -> "unusable";
            case NOT_CHECKED -> "-";
        };
    }

    private static void json(JsonGenerator g, BitCaskStats stats, VerifyReport files, Map<Long, VerifyReport.SegmentReport> byId,
                             long size, long hinted) throws IOException {
        g.writeStartObject();
        g.writeStringField("directory", files.directory().toString());
        g.writeNumberField("formatVersion", files.formatVersion());
        g.writeNumberField("keys", stats.keyCount());
        g.writeNumberField("liveBytes", stats.liveBytes());
        g.writeNumberField("deadBytes", stats.deadBytes());
        g.writeNumberField("deadRatio", stats.deadRatio());
        g.writeNumberField("segmentCount", stats.segmentCount());
        g.writeNumberField("diskBytes", stats.diskBytes());
        g.writeNumberField("indexBytes", stats.indexBytes());
        g.writeNumberField("dataBytes", stats.liveBytes() + stats.deadBytes());
        g.writeNumberField("dataFileBytes", size);
        g.writeNumberField("hintedBytes", hinted);
        g.writeBooleanField("liveWriter", files.liveWriter());
        g.writeNumberField("fileFindings", files.findings().size());
        g.writeArrayFieldStart("segments");
        for (BitCaskStats.SegmentStats s : stats.segments()) {
            VerifyReport.SegmentReport f = byId.get(s.id());
            g.writeStartObject();
            g.writeNumberField("id", s.id());
            g.writeBooleanField("newest", f != null && f.newest());
            g.writeNumberField("dataBytes", s.dataBytes());
            g.writeNumberField("liveBytes", s.liveBytes());
            g.writeNumberField("deadBytes", s.deadBytes());
            g.writeStringField("hint", f == null ? null : f.hint().name());
            g.writeNumberField("hintCovered", f == null ? 0 : f.hintCovered());
            g.writeNumberField("hintedBytes", hinted(f, s));
            g.writeNumberField("fileBytes", f == null ? 0 : f.size());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }
}
