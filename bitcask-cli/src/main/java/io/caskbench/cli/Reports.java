package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.caskbench.bitcask.RepairReport;
import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.VerifyReport.SegmentReport;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** Verify and repair reports as text for people and as JSON for programs. */
final class Reports {

    private static final JsonFactory JSON = new JsonFactory();

    private Reports() {
    }

    /** {@code bytes} for a person: {@code 512 B}, {@code 12.3 KiB}, {@code 4.0 GiB}. */
    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** A count with thousands separators. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** {@code n} with its noun in the right number: {@code 1 finding}, {@code 2 findings}, {@code 1,334 records}. */
    static String count(long n, String one, String many) {
        return count(n) + " " + (n == 1 ? one : many);
    }

    /** A JSON generator over {@code out} that prints one indented document. */
    static JsonGenerator json(Writer out) throws IOException {
        // The writer is the command's own output: printing the report must not close it.
        return JSON.createGenerator(out).useDefaultPrettyPrinter().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    }

    /** What a person can do about a finding that repair leaves. */
    static String advice(Kind kind) {
        return switch (kind) {
            case CORRUPT_RECORDS, TORN_TAIL -> "a merge ('bitcask merge DIR') drops these bytes; keys whose newest record lay there"
                    + " read as absent, or at an older value, from the next open on";
            case HEADER_UNREADABLE -> "open skips this file; move it out of the directory to look at it";
            case WRONG_VERSION -> "open the store with the release that wrote it";
            case UNREADABLE -> "check the disk and the file's permissions";
            case KEPT_TAIL -> "'bitcask dump --skip-corrupt DIR' writes out the records in it that check; no store operation"
                    + " reads or deletes the file: delete it once they are salvaged";
            default -> "run 'bitcask repair --apply DIR'";
        };
    }

    /**
     * True when verify found nothing, or, with {@code live} (null without {@code --live}), nothing but
     * what a running writer's work in progress explains.
     */
    static boolean healthy(VerifyReport r, WritesInProgress live) {
        return live != null ? live.others().isEmpty() : r.clean();
    }

    /**
     * The text report of a verify that took {@code millis}; with {@code live} (null without
     * {@code --live}), the findings a running writer's work explains are marked as such and not counted
     * as damage.
     */
    static void verifyText(VerifyReport r, long millis, WritesInProgress live, PrintWriter out) {
        long records = r.segments().stream().mapToLong(s -> Math.max(0, s.records())).sum();
        out.printf(Locale.ROOT, "%s: %d data files, %s records, %s read in %.2f s%n", r.directory(), r.segments().size(),
                count(records), size(r.bytesRead()), millis / 1000.0);
        for (Finding f : r.findings()) {
            findingText(r.directory(), f, out);
            if (live != null && live.explains(f)) {
                out.println("    a write in progress: the live writer's own work, which puts no record at risk");
            }
        }
        List<Finding> damage = live != null ? live.others() : r.findings();
        int inProgress = r.findings().size() - damage.size();
        String writer = inProgress == 0 ? "" : "; " + count(inProgress, "finding is", "findings are") + " the live writer's work in progress";
        if (damage.isEmpty()) {
            out.println("no damage found" + writer);
            return;
        }
        long files = damage.stream().map(Finding::file).distinct().count();
        boolean atRisk = damage.stream().anyMatch(f -> f.kind().dataAtRisk());
        out.printf("%s in %s; %s%s%n", count(damage.size(), "finding", "findings"), count(files, "file", "files"),
                atRisk ? "records are at risk" : "no record is at risk", writer);
        out.println("'bitcask repair " + r.directory() + "' shows what a repair would change");
    }

    /** One block per finding: file, kind, where, what; then what it means. */
    private static void findingText(Path dir, Finding f, PrintWriter out) {
        out.printf("%s  %s%s: %s%n", name(dir, f.file()), f.kind(), where(f), f.detail());
        out.printf("    %s%n", f.kind().meaning());
    }

    /** Where a finding lies: {@code  at offset 32700 (111 bytes)}, or nothing when it is about a whole file. */
    static String where(Finding f) {
        return f.offset() < 0 ? "" : " at offset " + f.offset() + " (" + count(f.length()) + " bytes)";
    }

    /** The hint file of a data file: the same name with {@code .hint} for {@code .data}. */
    static Path hintOf(Path data) {
        String name = data.getFileName().toString();
        return data.resolveSibling(name.substring(0, name.lastIndexOf('.')) + ".hint");
    }

    /** The file's name relative to the store directory. */
    static String name(Path dir, Path file) {
        return file.startsWith(dir) ? dir.relativize(file).toString() : file.toString();
    }

    /** A key for a person: its text in quotes when it is printable UTF-8, else {@code base64:} and its base64. */
    static String keyText(byte[] key) {
        String text = utf8(key);
        return text != null && text.codePoints().noneMatch(Character::isISOControl)
                ? "\"" + text + "\"" : "base64:" + Base64.getEncoder().encodeToString(key);
    }

    /** The text of valid UTF-8 bytes, or null when they are not. */
    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The text report of a repair. */
    static void repairText(RepairReport r, PrintWriter out) {
        Path dir = r.before().directory();
        if (r.before().clean()) {
            out.println(dir + ": no damage found; nothing to repair");
            return;
        }
        out.println(dir + ": " + count(r.before().findings().size(), "finding", "findings"));
        for (RepairReport.Action a : r.actions()) {
            out.printf("%s %s %s%s: %s%n", r.applied() ? "done: " : "would:", a.kind(), name(dir, a.file()),
                    a.offset() < 0 ? "" : " at offset " + a.offset(), a.reason());
            for (RepairReport.LeftOut e : a.leftOut()) {
                out.printf("    leaves out %s: the %s at offset %d fails its check; the key reads as absent, or at an older value%n",
                        keyText(e.key()), e.delete() ? "delete" : "record", e.offset());
            }
        }
        for (Finding f : r.unrepaired()) {
            out.printf("left:  %s %s%s: %s%n", f.kind(), name(dir, f.file()), where(f), f.detail());
            out.printf("    %s%n", advice(f.kind()));
        }
        if (!r.applied()) {
            out.println(r.actions().isEmpty() ? "nothing that a repair changes"
                    : "dry run: nothing was changed; 'bitcask repair --apply " + dir + "' makes these changes,"
                    + " after copying each file it changes into " + dir + "/repair-<time>/");
            return;
        }
        out.println(r.backupDirectory() == null ? "no file was changed, only new ones written"
                : "the files as they were are in " + r.backupDirectory());
        out.println(r.after().clean() ? "verified after the repair: no damage found"
                : "verified after the repair: " + count(r.after().findings().size(), "finding remains", "findings remain"));
    }

    /**
     * Writes a verify report as a JSON object; {@code healthy} and each finding's {@code inProgress}
     * say what {@code live} makes of it.
     */
    static void verifyJson(VerifyReport r, WritesInProgress live, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("directory", r.directory().toString());
        g.writeStringField("depth", r.depth().name());
        g.writeNumberField("formatVersion", r.formatVersion());
        g.writeBooleanField("clean", r.clean());
        g.writeBooleanField("healthy", healthy(r, live));
        g.writeBooleanField("dataAtRisk", r.dataAtRisk());
        g.writeBooleanField("liveWriter", r.liveWriter());
        g.writeNumberField("bytesRead", r.bytesRead());
        g.writeArrayFieldStart("segments");
        for (SegmentReport s : r.segments()) {
            g.writeStartObject();
            g.writeNumberField("id", s.id());
            g.writeStringField("file", name(r.directory(), s.file()));
            g.writeNumberField("size", s.size());
            g.writeNumberField("version", s.version());
            g.writeBooleanField("newest", s.newest());
            g.writeNumberField("records", s.records());
            g.writeNumberField("validEnd", s.validEnd());
            g.writeStringField("hint", s.hint().name());
            g.writeNumberField("hintCovered", s.hintCovered());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeFieldName("findings");
        findingsJson(r.directory(), r.findings(), f -> live != null && live.explains(f), g);
        g.writeEndObject();
    }

    private static void findingsJson(Path dir, List<Finding> findings, Predicate<Finding> inProgress, JsonGenerator g)
            throws IOException {
        g.writeStartArray();
        for (Finding f : findings) {
            g.writeStartObject();
            g.writeStringField("file", name(dir, f.file()));
            g.writeStringField("kind", f.kind().name());
            g.writeNumberField("offset", f.offset());
            g.writeNumberField("length", f.length());
            g.writeBooleanField("dataAtRisk", f.kind().dataAtRisk());
            g.writeStringField("detail", f.detail());
            g.writeStringField("meaning", f.kind().meaning());
            g.writeBooleanField("inProgress", inProgress.test(f));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Writes a repair report as a JSON object. */
    static void repairJson(RepairReport r, JsonGenerator g) throws IOException {
        Path dir = r.before().directory();
        g.writeStartObject();
        g.writeStringField("directory", dir.toString());
        g.writeBooleanField("applied", r.applied());
        g.writeBooleanField("complete", r.complete());
        g.writeStringField("backupDirectory", r.backupDirectory() == null ? null : r.backupDirectory().toString());
        g.writeArrayFieldStart("actions");
        for (RepairReport.Action a : r.actions()) {
            g.writeStartObject();
            g.writeStringField("kind", a.kind().name());
            g.writeStringField("file", name(dir, a.file()));
            g.writeNumberField("offset", a.offset());
            g.writeStringField("reason", a.reason());
            g.writeArrayFieldStart("leftOut");
            for (RepairReport.LeftOut e : a.leftOut()) {
                g.writeStartObject();
                String text = utf8(e.key());
                g.writeStringField("key", text != null ? text : Base64.getEncoder().encodeToString(e.key()));
                if (text == null) {
                    g.writeStringField("keyEncoding", JsonLines.BASE64);
                }
                g.writeNumberField("offset", e.offset());
                g.writeBooleanField("delete", e.delete());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeFieldName("unrepaired");
        findingsJson(dir, r.unrepaired(), f -> false, g);
        g.writeFieldName("before");
        verifyJson(r.before(), null, g);
        g.writeFieldName("after");
        if (r.after() == null) {
            g.writeNull();
        } else {
            verifyJson(r.after(), null, g);
        }
        g.writeEndObject();
    }
}
