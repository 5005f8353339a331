package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.ProgressListener;
import io.caskbench.bitcask.RepairReport;
import io.caskbench.bitcask.RepairReport.Action;
import io.caskbench.bitcask.RepairReport.ActionKind;
import io.caskbench.bitcask.RepairReport.LeftOut;
import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Depth;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.VerifyReport.SegmentReport;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;
import io.caskbench.bitcask.segment.HintScan;
import io.caskbench.bitcask.segment.SegmentScanner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Threading: one repair per object, on its caller's thread, which holds the store's lock.
 *
 * <p>Recovery's rules made explicit, offline: what open would do to a store directory each time
 * (cut the newest segment's torn tail, kept beside it, ignore bad hints, delete {@code *.tmp} debris) done once
 * and for good, plus what open cannot do on its own (rewrite hints, restore a damaged header copy
 * from the intact one, start a header-less empty file again, drop hints without data).
 *
 * <p>The caller holds the store's lock. Every file an action changes is first copied, forced, into
 * the backup directory. The actions keep the store openable at every instant: a header copy is
 * rewritten while the other stays intact, and a hint file is written only after its data file was
 * forced, through a temporary file renamed over the old one.
 */
public final class StoreRepairer {

    /** Salts for headers written anew; thread-safe. */
    private static final SecureRandom SALTS = new SecureRandom();

    /** Final, safe everywhere. */
    private final Path dir;
    /** Final; the repairing thread. */
    private final ProgressListener progress;
    /** Positional reads and writes, never a mapping; final, safe everywhere. */
    private final SegmentBackend files = new FileChannelBackend();

    private StoreRepairer(Path dir, ProgressListener progress) {
        this.dir = dir;
        this.progress = progress;
    }

    /**
     * Verifies the store in {@code dir}, plans the repair and, when {@code apply}, copies the files
     * it changes into {@code backupDir} (which must not exist yet), carries it out and verifies again.
     * The caller must hold the store's lock.
     */
    public static RepairReport repair(Path dir, boolean apply, Path backupDir, ProgressListener progress) {
        Path absolute = dir.toAbsolutePath().normalize();
        StoreRepairer r = new StoreRepairer(absolute, progress);
        VerifyReport before = StoreVerifier.verify(absolute, Depth.RECORDS, progress, false);
        List<Action> actions = new ArrayList<>();
        List<Finding> unrepaired = new ArrayList<>();
        plan(before, actions, unrepaired);
        actions.replaceAll(a -> a.kind() == ActionKind.WRITE_HINT ? r.withLeftOut(a, actions) : a);
        if (!apply || actions.isEmpty()) {
            return new RepairReport(before, List.copyOf(actions), List.copyOf(unrepaired), false, null, null);
        }
        Path backup = r.backUp(actions, backupDir.toAbsolutePath().normalize());
        r.apply(actions);
        VerifyReport after = StoreVerifier.verify(absolute, Depth.RECORDS, progress, false);
        return new RepairReport(before, List.copyOf(actions), List.copyOf(unrepaired), true, backup, after);
    }

    /** Turns findings into actions, in the order they must run; what no action fixes goes to {@code unrepaired}. */
    static void plan(VerifyReport report, List<Action> actions, List<Finding> unrepaired) {
        if (!report.findings(Kind.WRONG_VERSION).isEmpty()) {
            unrepaired.addAll(report.findings()); // a store of another version is not this release's to change
            return;
        }
        Map<Path, SegmentReport> segments = new HashMap<>();
        report.segments().forEach(s -> segments.put(s.file(), s));
        Map<String, Action> planned = new HashMap<>();
        for (Finding f : report.findings()) {
            SegmentReport seg = segments.get(f.file());
            switch (f.kind()) {
                case DEBRIS, ORPHAN_HINT -> add(planned, new Action(ActionKind.DELETE, f.file(), -1, f.kind().meaning()));
                case HEADER_COPY_DAMAGED, HEADER_MISMATCH ->
                        add(planned, new Action(ActionKind.REWRITE_HEADER, f.file(), -1, "restore it from the copy open reads: " + f.detail()));
                case HEADER_CUT_SHORT -> {
                    add(planned, new Action(ActionKind.REWRITE_HEADER, f.file(), -1, "the file holds no record: write a new header"));
                    Path hint = SegmentFiles.hintFile(report.directory(), seg.id());
                    add(planned, new Action(ActionKind.WRITE_HINT, hint, -1, "the data file gets a new header"));
                }
                case TORN_TAIL -> {
                    if (seg != null && seg.newest()) {
                        add(planned, new Action(ActionKind.TRUNCATE, f.file(), f.offset(), "cut the torn tail, as open does"
                                + " (bytes in which a record checks are kept in " + KeptTail.nameFor(f.file(), f.offset()).getFileName() + ")"));
                    } else {
                        unrepaired.add(f);
                    }
                }
                case HINT_MISSING, HINT_UNUSABLE, HINT_STALE, HINT_MISMATCH ->
                        add(planned, new Action(ActionKind.WRITE_HINT, f.file(), -1, f.kind().meaning()));
                default -> unrepaired.add(f);
            }
        }
        List<Action> ordered = new ArrayList<>(planned.values());
        ordered.sort(Comparator.comparing((Action a) -> a.kind().ordinal()).thenComparing(a -> a.file().getFileName().toString()));
        actions.addAll(ordered);
    }

    /** One action per file and kind: the first reason is kept. */
    private static void add(Map<String, Action> planned, Action action) {
        planned.putIfAbsent(action.kind() + " " + action.file(), action);
    }

    /**
     * Copies every file the actions change into {@code backup}, forced, before any is changed;
     * returns it, or null when the actions only create files and nothing needs a copy.
     */
    private Path backUp(List<Action> actions, Path backup) {
        Set<Path> touched = new LinkedHashSet<>();
        for (Action a : actions) {
            if (Files.exists(a.file())) {
                touched.add(a.file());
            }
        }
        long total = 0;
        for (Path f : touched) {
            total += size(f);
        }
        if (touched.isEmpty()) {
            return null;
        }
        progress.phase("backup", total);
        try {
            Files.createDirectory(backup);
        } catch (IOException e) {
            throw new BitCaskException("cannot create the repair backup directory " + backup + ": " + e.getMessage(), e);
        }
        for (Path f : touched) {
            try (SegmentReader in = new CountingReader(files.openReadOnly(f), progress::advance)) {
                files.copyPrefix(in, in.size(), backup.resolve(f.getFileName()));
            }
        }
        files.forceDirectory(backup);
        files.forceDirectory(dir);
        return backup;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new BitCaskException("cannot read the size of " + file + ": " + e.getMessage(), e);
        }
    }

    private void apply(List<Action> actions) {
        long scanned = 0;
        for (Action a : actions) {
            if (a.kind() == ActionKind.WRITE_HINT) {
                scanned += size(SegmentFiles.dataFile(dir, idOf(a.file(), SegmentFiles.HINT_SUFFIX)));
            }
        }
        progress.phase("repair", scanned);
        for (Action a : actions) {
            switch (a.kind()) {
                case DELETE -> files.delete(a.file());
                case REWRITE_HEADER -> rewriteHeader(a.file());
                case TRUNCATE -> truncate(a.file(), a.offset());
                case WRITE_HINT -> writeHint(a.file());
                default -> throw new IllegalStateException("unknown action " + a.kind());
            }
        }
        files.forceDirectory(dir);
    }

    /** Cuts a data file at {@code cut}, after keeping the bytes it cuts beside it, as open does (see {@link KeptTail}). */
    private void truncate(Path file, long cut) {
        try (SegmentWriter w = files.openWritable(file, 0)) {
            long size = w.size();
            FileHeader h = FileHeader.read(w, size);
            if (size > cut && h.intactBlock() >= 0) {
                KeptTail.keep(files, w, file, idOf(file, SegmentFiles.DATA_SUFFIX), h.salt(), cut, size);
            }
            w.truncate(cut);
            w.force();
        }
    }

    /**
     * Writes the header again with the id of the file's name: the copy open does not read first,
     * then, once that is forced, the one it reads, so one intact copy with the salt exists at every
     * instant. A file without an intact copy holds no record (the plan says so) and gets a new salt.
     */
    private void rewriteHeader(Path file) {
        long id = idOf(file, SegmentFiles.DATA_SUFFIX);
        try (SegmentWriter w = files.openWritable(file, 0)) {
            FileHeader h = FileHeader.read(w, w.size());
            byte[] target = new byte[RecordFormat.FILE_HEADER_SIZE];
            if (h.intactBlock() < 0) {
                if (h.size() > RecordFormat.FILE_HEADER_SIZE) {
                    throw new BitCaskException(file + " has no intact header and holds more than one: not rewritten");
                }
                RecordFormat.encodeFileHeader(target, id, newSalt());
                w.write(0, target, 0, target.length);
                w.truncate(RecordFormat.FILE_HEADER_SIZE);
                w.force();
                return;
            }
            RecordFormat.encodeFileHeader(target, id, h.salt());
            int block = RecordFormat.HEADER_BLOCK_SIZE;
            for (int at : new int[] {block - h.intactBlock(), h.intactBlock()}) {
                if (!Arrays.equals(h.bytes(), at, at + block, target, at, at + block)) {
                    w.write(at, target, at, block);
                    w.force();
                }
            }
        }
    }

    /** Forces a data file, then writes its hint from a scan of it, as a store does when it seals a segment. */
    private void writeHint(Path hintFile) {
        long id = idOf(hintFile, SegmentFiles.HINT_SUFFIX);
        Path data = SegmentFiles.dataFile(dir, id);
        files.forceFile(data);
        files.writeFile(hintFile, hint(hintFile, -1, true));
    }

    /**
     * The content a repair gives {@code hintFile}: from a scan of its data file's first {@code length}
     * bytes (all of them when negative), keeping what the present hint lists of damaged batches (see
     * {@link HintScan}).
     */
    private byte[] hint(Path hintFile, long length, boolean counting) {
        long id = idOf(hintFile, SegmentFiles.HINT_SUFFIX);
        Path data = SegmentFiles.dataFile(dir, id);
        SegmentReader file = files.openReadOnly(data);
        try (SegmentReader reader = counting ? new CountingReader(file, progress::advance) : file) {
            long size = length < 0 ? reader.size() : Math.min(length, reader.size());
            FileHeader h = FileHeader.read(reader, size);
            if (h.intactBlock() < 0) {
                throw new BitCaskException(data + " has no intact header: no hint written");
            }
            return HintScan.build(new SegmentScanner(reader, size, h.salt(), StoreVerifier.SILENT), id, h.salt(), size,
                    () -> files.readFile(hintFile));
        }
    }

    /**
     * {@code a}, a hint to write, with the entries of the present hint, when open uses it, that the new
     * one leaves out: so that a dry run names every key whose read changes. The new hint is built from
     * the data file as it will be, cut where the other {@code actions} cut it.
     */
    private Action withLeftOut(Action a, List<Action> actions) {
        byte[] present = files.readFile(a.file());
        Path data = SegmentFiles.dataFile(dir, idOf(a.file(), SegmentFiles.HINT_SUFFIX));
        if (present == null || !Files.exists(data)) {
            return a;
        }
        long length = size(data);
        long cut = actions.stream().filter(t -> t.kind() == ActionKind.TRUNCATE && t.file().equals(data))
                .mapToLong(Action::offset).findFirst().orElse(-1);
        try (SegmentReader reader = files.openReadOnly(data)) {
            FileHeader h = FileHeader.read(reader, length);
            if (h.intactBlock() < 0 || !HintFormat.validate(present, idOf(a.file(), SegmentFiles.HINT_SUFFIX), h.salt(), length).usable()) {
                return a; // open ignores it: the new hint changes no read
            }
        }
        Set<Long> kept = new HashSet<>();
        HintFormat.forEach(hint(a.file(), cut, false), (offset, len, flags, expiresAt, buf, keyOff, keyLength) -> kept.add(offset));
        List<LeftOut> leftOut = new ArrayList<>();
        HintFormat.forEach(present, (offset, len, flags, expiresAt, buf, keyOff, keyLength) -> {
            if (!kept.contains(offset)) {
                leftOut.add(new LeftOut(Arrays.copyOfRange(buf, keyOff, keyOff + keyLength), offset,
                        (flags & RecordFormat.TOMBSTONE) != 0));
            }
        });
        if (leftOut.isEmpty()) {
            return a;
        }
        leftOut.sort(Comparator.comparingLong(LeftOut::offset));
        return new Action(a.kind(), a.file(), a.offset(), a.reason() + "; it leaves out " + leftOut.size()
                + (leftOut.size() == 1 ? " entry whose record fails its check: that key reads" : " entries whose records fail"
                + " their check: those keys read") + " as absent, or at an older value, from then on", leftOut);
    }

    /** The segment id in the name of a data or hint file of this store. */
    private long idOf(Path file, String suffix) {
        String name = file.getFileName().toString();
        long id = Long.parseLong(name.substring(0, name.length() - suffix.length()));
        if (!file.equals(suffix.equals(SegmentFiles.DATA_SUFFIX) ? SegmentFiles.dataFile(dir, id) : SegmentFiles.hintFile(dir, id))) {
            throw new BitCaskException(file + " is not a file name of this store");
        }
        return id;
    }

    private static long newSalt() {
        long salt;
        do {
            salt = SALTS.nextLong();
        } while (salt == 0); // 0 marks a header without salt
        return salt;
    }
}
