package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.MappedBackend;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The power-loss model itself: what survives a cut must be exactly what the forces made durable. */
class PowerLossBackendTest {

    private static final byte[] A = {1, 2, 3, 4, 5};
    private static final byte[] B = {6, 7, 8};

    @TempDir
    Path tmp;

    private Path dir;
    private PowerLossBackend power;

    private PowerLossBackend on(SegmentBackend real) throws IOException {
        dir = Files.createDirectories(tmp.resolve("store"));
        power = new PowerLossBackend(real, dir);
        return power;
    }

    /** Cuts the power and returns the surviving image: name to content. */
    private Map<String, byte[]> image() throws IOException {
        power.cut();
        Path target = tmp.resolve("image");
        power.materialize(target);
        return PowerLossBackend.filesIn(target);
    }


    /** Opens file a, writes A into it and forces its content and its name; returns the open writer. */
    private SegmentWriter durableA(PowerLossBackend p) {
        SegmentWriter w = p.openWritable(dir.resolve("a"), 1 << 16);
        w.write(0, A, 0, A.length);
        w.force();
        p.forceDirectory(dir);
        return w;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @Test
    void onlyForcedWritesSurviveAndOnlyNamesOfAForcedDirectory() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        SegmentWriter w = durableA(p);
        w.write(A.length, B, 0, B.length);
        SegmentWriter unnamed = p.openWritable(dir.resolve("b"), 1 << 16);
        unnamed.write(0, A, 0, A.length);
        unnamed.force(); // content forced, name never
        Map<String, byte[]> image = image();
        assertThat(image).containsOnlyKeys("a");
        assertThat(image.get("a")).isEqualTo(A);
        w.close();
        unnamed.close();
    }

    @Test
    void aFileWhoseNameIsDurableButWhoseContentWasNeverForcedIsEmpty() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        try (SegmentWriter w = p.openWritable(dir.resolve("a"), 1 << 16)) {
            p.forceDirectory(dir);
            w.write(0, A, 0, A.length);
            p.cut();
        }
        Path target = tmp.resolve("image");
        p.materialize(target);
        assertThat(PowerLossBackend.filesIn(target)).containsOnlyKeys("a");
        assertThat(PowerLossBackend.filesIn(target).get("a")).isEmpty();
    }

    @Test
    void closingAWriterForcesIt() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        try (SegmentWriter w = p.openWritable(dir.resolve("a"), 1 << 16)) {
            w.write(0, A, 0, A.length);
        }
        p.forceDirectory(dir);
        assertThat(image().get("a")).isEqualTo(A);
    }

    @Test
    void truncationsCountOnlyOnceForced() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        SegmentWriter w = p.openWritable(dir.resolve("a"), 1 << 16);
        w.write(0, concat(A, B), 0, A.length + B.length);
        w.force();
        p.forceDirectory(dir);
        w.truncate(A.length);
        assertThat(image().get("a")).isEqualTo(concat(A, B));
        w.close();
    }

    @Test
    void aMappedWritersZeroFilledTailIsPartOfItsForcedContent() throws IOException {
        PowerLossBackend p = on(new MappedBackend());
        SegmentWriter w = durableA(p);
        long realLength = Files.size(dir.resolve("a"));
        byte[] survived = image().get("a");
        assertThat(survived).hasSize((int) realLength);
        assertThat(Arrays.copyOf(survived, A.length)).isEqualTo(A);
        assertThat(Arrays.copyOfRange(survived, A.length, survived.length)).containsOnly((byte) 0);
        w.close();
    }

    @Test
    void renamesAndDeletesSinceTheLastDirectoryForceAreUndone() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        try (SegmentWriter w = p.openWritable(dir.resolve("a.tmp"), 1 << 16)) {
            w.write(0, A, 0, A.length);
        }
        p.writeFile(dir.resolve("gone"), B);
        p.forceDirectory(dir);
        p.rename(dir.resolve("a.tmp"), dir.resolve("a"));
        p.delete(dir.resolve("gone"));
        Map<String, byte[]> image = image();
        assertThat(image).containsOnlyKeys("a.tmp", "gone");
        assertThat(image.get("a.tmp")).isEqualTo(A);
        assertThat(image.get("gone")).isEqualTo(B);
    }

    @Test
    void aRenameKeepsTheFilesIdentity() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        SegmentWriter w = p.openWritable(dir.resolve("a.tmp"), 1 << 16);
        w.write(0, A, 0, A.length);
        p.rename(dir.resolve("a.tmp"), dir.resolve("a"));
        p.forceDirectory(dir);
        w.force(); // through the handle opened under the old name
        assertThat(image().get("a")).isEqualTo(A);
        w.close();
    }

    @Test
    void writeFileContentIsDurableAtOnceButItsNameWaitsForTheDirectory() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        p.writeFile(dir.resolve("h"), A);
        p.forceDirectory(dir);
        p.writeFile(dir.resolve("h"), B); // replaced, but the directory still names the old file
        assertThat(p.readFile(dir.resolve("h"))).isEqualTo(B);
        assertThat(image().get("h")).isEqualTo(A);
    }

    @Test
    void forceFileMakesTheCurrentContentDurable() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        try (SegmentWriter w = p.openWritable(dir.resolve("a"), 1 << 16)) {
            w.write(0, A, 0, A.length);
            p.forceFile(dir.resolve("a"));
            p.forceDirectory(dir);
            w.write(A.length, B, 0, B.length);
            p.cut();
        }
        Path target = tmp.resolve("image");
        p.materialize(target);
        assertThat(PowerLossBackend.filesIn(target).get("a")).isEqualTo(A);
    }

    @Test
    void copiesAreDurableAndLinksShareTheirSourcesDurability() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        Path backup = Files.createDirectories(tmp.resolve("backup"));
        try (SegmentWriter w = durableA(p)) {
            w.write(A.length, B, 0, B.length);
            p.linkOrCopy(dir.resolve("a"), backup.resolve("a"));
            try (SegmentReader r = p.openReadOnly(dir.resolve("a"))) {
                p.copyPrefix(r, A.length + 1, backup.resolve("prefix"));
            }
            p.forceDirectory(backup);
            p.cut();
        }
        Path target = tmp.resolve("image");
        p.materialize(backup, target);
        Map<String, byte[]> image = PowerLossBackend.filesIn(target);
        assertThat(image.get("prefix")).isEqualTo(Arrays.copyOf(concat(A, B), A.length + 1));
        // A hard link is the same file: only what was forced of it survives. A copy is forced whole.
        byte[] linkedOrCopied = image.get("a");
        assertThat(linkedOrCopied).isIn(A, concat(A, B));
        boolean linked = Files.isSameFile(dir.resolve("a"), backup.resolve("a"));
        assertThat(linkedOrCopied).isEqualTo(linked ? A : concat(A, B));
    }

    @Test
    void filesFoundOnFirstSightCountAsDurable() throws IOException {
        dir = Files.createDirectories(tmp.resolve("store"));
        Files.write(dir.resolve("old"), A);
        Files.write(dir.resolve("LOCK"), B);
        power = new PowerLossBackend(new FileChannelBackend(), dir);
        try (SegmentReader r = power.openReadOnly(dir.resolve("old"))) {
            assertThat(r.size()).isEqualTo(A.length);
        }
        power.delete(dir.resolve("old"));
        Map<String, byte[]> image = image();
        assertThat(image).containsOnlyKeys("old");
        assertThat(image.get("old")).isEqualTo(A);
        assertThat(power.bypasses()).isEmpty();
    }

    @Test
    void everyCallAfterTheCutThrowsAndChangesNothing() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        SegmentWriter w = durableA(p);
        p.cutAtCall(2);
        w.write(A.length, B, 0, B.length); // the first call after arming still runs
        assertThatThrownBy(w::force).isInstanceOf(BitCaskException.class).hasMessageContaining("power cut");
        assertThat(p.isCut()).isTrue();
        assertThatThrownBy(() -> w.read(0, new byte[1], 0, 1)).isInstanceOf(BitCaskException.class);
        assertThatThrownBy(() -> p.forceDirectory(dir)).isInstanceOf(BitCaskException.class);
        assertThatThrownBy(() -> p.writeFile(dir.resolve("h"), A)).isInstanceOf(BitCaskException.class);
        w.close(); // releases the real file without making anything durable
        Path target = tmp.resolve("image");
        p.materialize(target);
        assertThat(PowerLossBackend.filesIn(target).get("a")).isEqualTo(A);
        assertThat(Files.exists(dir.resolve("h"))).isFalse();
    }

    @Test
    void changesMadeBehindTheBackendsBackAreReported() throws IOException {
        PowerLossBackend p = on(new FileChannelBackend());
        p.writeFile(dir.resolve("h"), A);
        Files.write(dir.resolve("sneaky"), B);
        Files.delete(dir.resolve("h"));
        p.cut();
        assertThat(p.divergenceAtCut()).hasSize(2).anyMatch(s -> s.startsWith("sneaky")).anyMatch(s -> s.startsWith("h "));
    }

    /**
     * A usage that forces every change of content and of names leaves nothing to lose: the image
     * must equal the real directory, byte for byte, whatever the mix of operations.
     */
    @EveryBackend
    void aFullyForcedUsageMaterializesExactlyTheDirectory(Backend backend) throws IOException {
        PowerLossBackend p = on(Backends.segmentBackend(backend));
        Random rnd = new Random(7);
        SegmentWriter w = null;
        Path wFile = null;
        int files = 0;
        for (int op = 0; op < 400; op++) {
            int dice = rnd.nextInt(10);
            if (w == null || dice == 0) {
                if (w != null) {
                    w.close();
                }
                wFile = dir.resolve("seg" + files++);
                w = p.openWritable(wFile, 1 << 16);
            } else if (dice < 6) {
                byte[] data = new byte[1 + rnd.nextInt(300)];
                rnd.nextBytes(data);
                long at = rnd.nextInt(4) == 0 ? rnd.nextInt((int) Math.max(1, Files.size(wFile))) : Files.size(wFile);
                if (at + data.length <= 1 << 16) {
                    w.write(at, data, 0, data.length);
                }
            } else if (dice == 6) {
                w.truncate(rnd.nextInt((int) Math.max(1, Files.size(wFile))));
            } else if (dice == 7) {
                byte[] data = new byte[rnd.nextInt(100)];
                rnd.nextBytes(data);
                p.writeFile(dir.resolve("small" + rnd.nextInt(3)), data);
            } else if (dice == 8 && files > 1) {
                Path victim = dir.resolve("seg" + rnd.nextInt(files - 1));
                if (!victim.equals(wFile)) {
                    p.delete(victim);
                }
            } else {
                Path from = dir.resolve("small" + rnd.nextInt(3));
                if (Files.exists(from)) {
                    p.rename(from, dir.resolve("renamed" + rnd.nextInt(3)));
                }
            }
            w.force();
            p.forceDirectory(dir);
        }
        Map<String, byte[]> real = PowerLossBackend.filesIn(dir);
        Map<String, byte[]> image = image();
        assertThat(image.keySet()).isEqualTo(real.keySet());
        for (String name : real.keySet()) {
            assertThat(image.get(name)).as(name).isEqualTo(real.get(name));
        }
        assertThat(p.divergenceAtCut()).isEmpty();
        w.close();
    }
}
