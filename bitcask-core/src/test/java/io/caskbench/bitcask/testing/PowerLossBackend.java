package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Wraps a real backend and models a power loss: it keeps what a force made durable, and after
 * {@link #cut()} it can write that surviving image into a fresh directory.
 *
 * <p>The model, per file identity (an inode: a rename or a hard link keeps it, a new file gets a
 * new one): the current content, tracked from the writes and truncations through its writer, and
 * the durable content, as of its last successful force. {@code writeFile}, {@code copyPrefix} and a
 * copying {@code linkOrCopy} produce content that is durable once they return; {@code forceFile}
 * makes a file's current content durable; closing a writer forces it, as both real backends do.
 * Per directory: the current names and the durable names, which only {@code forceDirectory}
 * updates, so a creation, rename or deletion since the last directory force is undone by the cut.
 * A file that exists when the wrapper first looks at its directory counts as durable as found.
 * The lock file is left out: the store creates it itself.
 *
 * <p>Forces are modelled, not passed on (the image is built from the model, so what the real files
 * reach does not matter, and on a real disk a force costs milliseconds). After the cut every call
 * throws {@link BitCaskException}, except closing a handle, which releases the real file and
 * changes nothing in the model; so the store can be closed without anything more surviving.
 *
 * <p>Every call runs under this object's lock, so the model sees calls in one order and a call
 * that returns normally has its effect in the model before any cut.
 *
 * <p>Longer than most classes: the model (inodes, directories) and every backend and handle
 * method that updates it belong together; split, each half would be unreadable without the other.
 */
public final class PowerLossBackend implements SegmentBackend {

    private static final byte[] EMPTY = new byte[0];

    private final SegmentBackend delegate;
    private final Path root;
    private final Map<Path, Directory> dirs = new TreeMap<>();
    private final List<String> bypasses = new ArrayList<>();
    private boolean cut;
    private long cutCountdown;
    private long calls;
    private List<String> divergenceAtCut = List.of();

    /**
     * Wraps {@code delegate} for a store in {@code root}, the directory {@link #materialize(Path)}
     * writes the image of.
     */
    public PowerLossBackend(SegmentBackend delegate, Path root) {
        this.delegate = delegate;
        this.root = normal(root);
    }

    /** One file identity. */
    private static final class Inode {
        private byte[] data = EMPTY;
        private int length;
        /** Content as of the last successful force; empty until the first. */
        private byte[] durable = EMPTY;

        static Inode durableAs(byte[] content) {
            Inode i = new Inode();
            i.data = content.clone();
            i.length = content.length;
            i.durable = content.clone();
            return i;
        }

        void write(long position, byte[] src, int off, int len) {
            int end = Math.toIntExact(position + len);
            if (end > data.length) {
                data = Arrays.copyOf(data, Math.max(end, data.length * 2));
            }
            if (position > length) {
                Arrays.fill(data, length, (int) position, (byte) 0);
            }
            System.arraycopy(src, off, data, (int) position, len);
            length = Math.max(length, end);
        }

        void truncate(long size) {
            if (size < length) {
                length = (int) size;
            }
        }

        /**
         * The current content as the file holds it: the tracked bytes, and zeros up to
         * {@code fileLength} (a mapped writer grows the file with zeros ahead of its writes).
         */
        byte[] content(long fileLength) {
            byte[] c = Arrays.copyOf(data, (int) Math.max(fileLength, 0));
            if (length < c.length) {
                Arrays.fill(c, length, c.length, (byte) 0);
            }
            return c;
        }
    }

    /** The names of one directory, now and as of its last force. */
    private static final class Directory {
        private final Map<String, Inode> current = new TreeMap<>();
        private Map<String, Inode> durable = new TreeMap<>();
    }

    // ------------------------------------------------------------------ control

    /** Cuts the power now: every later call throws. */
    public synchronized void cut() {
        if (!cut) {
            cut = true;
            divergenceAtCut = divergence(root);
        }
    }

    /**
     * Arms a cut: the {@code n}-th call from now (counting every call of every thread) finds the
     * power gone, throws and has no effect.
     */
    public synchronized void cutAtCall(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1: " + n);
        }
        cutCountdown = n;
    }

    /** True once the power is cut. */
    public synchronized boolean isCut() {
        return cut;
    }

    /** Calls made so far. */
    public synchronized long calls() {
        return calls;
    }

    /**
     * Files the store created, changed or removed without a call through this backend, noticed
     * when a call named them. The model cannot know whether such a change survives a power loss.
     */
    public synchronized List<String> bypasses() {
        return List.copyOf(bypasses);
    }

    /**
     * How the real store directory differed from the model's current view of it when the power
     * was cut (missing or extra names, different content); empty when the store did every file
     * operation through this backend.
     */
    public synchronized List<String> divergenceAtCut() {
        return divergenceAtCut;
    }

    /** Writes the surviving image of the store directory into {@code target}, which must not exist. */
    public void materialize(Path target) {
        materialize(root, target);
    }

    /** Writes the surviving image of {@code dir}: its durable names with their durable content. */
    public synchronized void materialize(Path dir, Path target) {
        Directory d = directory(normal(dir));
        try {
            Files.createDirectories(target.getParent());
            Files.createDirectory(target);
            for (Map.Entry<String, Inode> e : d.durable.entrySet()) {
                Files.write(target.resolve(e.getKey()), e.getValue().durable);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // --------------------------------------------------------------- the model

    private static Path normal(Path p) {
        return p.toAbsolutePath().normalize();
    }

    /** Counts a call; throws when the power is (or now goes) out. Holds the lock. */
    private void step(String what) {
        if (cut) {
            throw new BitCaskException("power cut: " + what);
        }
        calls++;
        if (cutCountdown > 0 && --cutCountdown == 0) {
            cut();
            throw new BitCaskException("power cut: " + what);
        }
    }

    /** The model of {@code dir}; on first sight, what is in it counts as durable. */
    private Directory directory(Path dir) {
        Directory d = dirs.get(dir);
        if (d != null) {
            return d;
        }
        d = new Directory();
        if (Files.isDirectory(dir)) {
            for (Map.Entry<String, byte[]> e : filesIn(dir).entrySet()) {
                Inode i = Inode.durableAs(e.getValue());
                d.current.put(e.getKey(), i);
                d.durable.put(e.getKey(), i);
            }
        }
        dirs.put(dir, d);
        return d;
    }

    /** The regular files of {@code dir} but the lock file, by name, with their content. */
    public static Map<String, byte[]> filesIn(Path dir) {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : (Iterable<Path>) s::iterator) {
                String name = f.getFileName().toString();
                if (Files.isRegularFile(f) && !name.equals(SegmentFiles.LOCK_FILE)) {
                    files.put(name, Files.readAllBytes(f));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private Directory directoryOf(Path file) {
        return directory(normal(file).getParent());
    }

    private static String name(Path file) {
        return file.getFileName().toString();
    }

    /**
     * The inode {@code file} names now, or null when it names none. A file on disk that the model
     * does not know was made behind the backend's back: noted, and taken as durable as found.
     */
    private Inode lookup(Path file) {
        Directory d = directoryOf(file);
        Inode i = d.current.get(name(file));
        if (i == null && Files.isRegularFile(file)) {
            bypasses.add("created without the backend: " + file);
            i = Inode.durableAs(readAll(file));
            d.current.put(name(file), i);
            d.durable.put(name(file), i);
        }
        return i;
    }

    private static byte[] readAll(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compares the model's current view of {@code dir} with the real directory. */
    private List<String> divergence(Path dir) {
        Directory d = dirs.get(dir);
        if (d == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> diffs = new ArrayList<>();
        Map<String, byte[]> real = filesIn(dir);
        for (Map.Entry<String, byte[]> e : real.entrySet()) {
            Inode i = d.current.get(e.getKey());
            if (i == null) {
                diffs.add(e.getKey() + " exists but was made without the backend");
            } else if (!Arrays.equals(i.content(e.getValue().length), e.getValue())) {
                diffs.add(e.getKey() + " holds content written without the backend");
            }
        }
        for (String n : d.current.keySet()) {
            if (!real.containsKey(n)) {
                diffs.add(n + " was removed or renamed without the backend");
            }
        }
        return diffs;
    }

    // ------------------------------------------------------------------ backend

    /**
     * Runs before a file is opened for writing, outside this backend's lock, on the opening
     * thread: a test uses it to make another thread write at an exact point of a merge.
     */
    public volatile Consumer<Path> beforeOpenWritable = file -> { };

    @Override
    public SegmentWriter openWritable(Path file, long capacity) {
        beforeOpenWritable.accept(file);
        return openWritableLocked(file, capacity);
    }

    private synchronized SegmentWriter openWritableLocked(Path file, long capacity) {
        step("open " + file);
        Inode i = lookup(file);
        SegmentWriter w = delegate.openWritable(file, capacity);
        if (i == null) {
            i = new Inode();
            directoryOf(file).current.put(name(file), i);
        }
        return new Writer(file, w, i);
    }

    @Override
    public synchronized SegmentReader openReadOnly(Path file) {
        step("open " + file);
        lookup(file);
        return new Reader(file, delegate.openReadOnly(file));
    }

    @Override
    public synchronized byte[] readFile(Path file) {
        step("read " + file);
        lookup(file);
        return delegate.readFile(file);
    }

    @Override
    public synchronized void writeFile(Path file, byte[] content) {
        step("write " + file);
        lookup(file);
        delegate.writeFile(file, content);
        directoryOf(file).current.put(name(file), Inode.durableAs(content));
    }

    @Override
    public synchronized void rename(Path from, Path to) {
        step("rename " + from);
        Inode i = lookup(from);
        lookup(to);
        delegate.rename(from, to);
        directoryOf(from).current.remove(name(from));
        directoryOf(to).current.put(name(to), i);
    }

    @Override
    public synchronized boolean delete(Path file) {
        step("delete " + file);
        lookup(file);
        boolean deleted = delegate.delete(file);
        directoryOf(file).current.remove(name(file));
        return deleted;
    }

    @Override
    public synchronized void linkOrCopy(Path src, Path dst) {
        step("link " + src);
        Inode s = lookup(src);
        lookup(dst);
        delegate.linkOrCopy(src, dst);
        boolean linked;
        try {
            linked = Files.isSameFile(src, dst);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        directoryOf(dst).current.put(name(dst), linked && s != null ? s : Inode.durableAs(readAll(dst)));
    }

    @Override
    public synchronized void copyPrefix(SegmentReader src, long length, Path dst) {
        step("copy to " + dst);
        lookup(dst);
        delegate.copyPrefix(src, length, dst); // its reads of src come back through this backend
        directoryOf(dst).current.put(name(dst), Inode.durableAs(readAll(dst)));
    }

    @Override
    public synchronized void forceFile(Path file) {
        step("force " + file);
        Inode i = lookup(file);
        if (i == null) {
            throw new BitCaskException("cannot force " + file + ": no such file");
        }
        i.durable = i.content(sizeOf(file));
    }

    @Override
    public synchronized void forceDirectory(Path dir) {
        step("force " + dir);
        Directory d = directory(normal(dir));
        d.durable = new TreeMap<>(d.current);
    }

    /** A handle: every call is a step; closing releases the real file. */
    private class Reader implements SegmentReader {
        final Path file;
        private final SegmentReader r;

        Reader(Path file, SegmentReader r) {
            this.file = file;
            this.r = r;
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            synchronized (PowerLossBackend.this) {
                step("read " + file);
                r.read(position, dst, off, len);
            }
        }

        @Override
        public long size() {
            synchronized (PowerLossBackend.this) {
                step("size " + file);
                return r.size();
            }
        }

        @Override
        public void close() {
            r.close();
        }
    }

    private final class Writer extends Reader implements SegmentWriter {
        private final SegmentWriter w;
        private final Inode inode;
        private boolean closed;

        Writer(Path file, SegmentWriter w, Inode inode) {
            super(file, w);
            this.w = w;
            this.inode = inode;
        }

        @Override
        public void write(long position, byte[] src, int off, int len) {
            synchronized (PowerLossBackend.this) {
                step("write " + file);
                w.write(position, src, off, len);
                inode.write(position, src, off, len);
            }
        }

        @Override
        public void truncate(long size) {
            synchronized (PowerLossBackend.this) {
                step("truncate " + file);
                w.truncate(size);
                inode.truncate(size);
            }
        }

        /** Passed on: the real file's descriptor goes, the model of its content stays as it is. */
        @Override
        public void sealed() {
            w.sealed();
        }

        @Override
        public void force() {
            synchronized (PowerLossBackend.this) {
                step("force " + file);
                inode.durable = inode.content(w.size());
            }
        }

        /** Both real backends force a writer as they close it; after the cut nothing more survives. */
        @Override
        public void close() {
            synchronized (PowerLossBackend.this) {
                if (!closed && !cut) {
                    inode.durable = inode.content(w.size());
                }
                closed = true;
                w.close();
            }
        }
    }
}
