package io.caskbench.bitcask.segment;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.testing.FaultyBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link SegmentTable}: a slot is handed out once until it is released, a segment taken out of its
 * slot is never found by a location into it, and its slot is not reused while it may still be read.
 */
class SegmentTableTest {

    @TempDir
    Path dir;

    private SegmentTable table() {
        return new SegmentTable(new StoreDirectory(dir, new FileChannelBackend()), 1 << 16);
    }

    private static Segment segment(long id, int slot) {
        return new Segment(id, 1, slot, Path.of(id + ".data"), null, null, 0);
    }

    @Test
    void aReservedSlotIsNotHandedOutAgainUntilItIsRegisteredOrReleased() {
        SegmentTable table = table();
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < 40; i++) { // past the first 16, so that the slots grow
            assertThat(slots.add(table.allocateSlot())).as("slot %d is new", i).isTrue();
        }
        assertThat(slots).hasSize(40);

        table.release(7);
        assertThat(table.allocateSlot()).as("the released slot, the lowest free one").isEqualTo(7);

        table.register(segment(1, 3));
        assertThat(table.at(3).id()).isEqualTo(1);
        int next = table.allocateSlot();
        assertThat(next).as("a registered slot is taken").isNotEqualTo(3).isEqualTo(40);
    }

    @Test
    void aSegmentTakenOutOfItsSlotIsNeverFoundAndItsSlotStaysTakenUntilReleased() {
        SegmentTable table = table();
        int slot = table.allocateSlot();
        Segment merged = segment(1, slot);
        table.register(merged);
        long stale = Location.of(slot, 100);
        assertThat(table.of(stale)).isSameAs(merged);
        assertThat(table.of(stale | Location.DELETED)).as("a tombstone's location names the same slot").isSameAs(merged);

        table.forget(List.of(merged));
        assertThat(table.inOrder()).as("forgotten by id").isEmpty();
        assertThat(table.of(stale)).as("still reachable by slot while the swap is under way").isSameAs(merged);

        table.unreachable(List.of(merged));
        assertThat(table.of(stale)).as("the stale location resolves to nothing").isNull();
        for (int i = 0; i < 20; i++) {
            int other = table.allocateSlot();
            assertThat(other).as("a slot still being retired is not handed out").isNotEqualTo(slot);
            Segment fresh = segment(10 + i, other);
            table.register(fresh);
        }
        assertThat(table.of(stale)).as("no new segment answers to the stale location").isNull();

        table.release(slot);
        assertThat(table.allocateSlot()).as("free again once the retired segment is closed").isEqualTo(slot);
    }

    @Test
    void replaceKeepsTheSlotAndInOrderListsRegisteredSegmentsOldestFirst() {
        SegmentTable table = table();
        Segment third = segment(3, table.allocateSlot());
        Segment first = segment(1, table.allocateSlot());
        table.register(third);
        table.register(first);
        Segment reopened = segment(3, third.slot());

        table.replace(third, reopened);

        assertThat(table.at(third.slot())).isSameAs(reopened);
        assertThat(table.inOrder()).containsExactly(first, reopened);
        assertThat(table.at(1_000)).as("a slot past the end holds nothing").isNull();
    }

    @Test
    void createWritesAHeaderAndRegistersTheSegmentInAFreeSlot() throws Exception {
        SegmentTable table = table();
        int taken = table.allocateSlot();

        Segment seg = table.create(5);

        assertThat(seg.slot()).isNotEqualTo(taken);
        assertThat(table.at(seg.slot())).isSameAs(seg);
        assertThat(table.inOrder()).containsExactly(seg);
        assertThat(Files.exists(SegmentFiles.dataFile(dir, 5))).isTrue();
        assertThat(seg.salt()).isNotEqualTo(SegmentTable.NO_SALT);
        seg.writer().close();
    }

    @Test
    void aCreateWhoseHeaderWriteFailsLeavesNoFileNoSegmentAndNoReservedSlot() {
        FaultyBackend faulty = new FaultyBackend(new FileChannelBackend());
        SegmentTable table = new SegmentTable(new StoreDirectory(dir, faulty), 1 << 16);
        faulty.failCall(1, EnumSet.of(FaultyBackend.Kind.WRITE));

        assertThatThrownBy(() -> table.create(5)).isInstanceOf(BitCaskException.class).hasMessageContaining("injected");

        assertThat(Files.exists(SegmentFiles.dataFile(dir, 5))).isFalse();
        assertThat(table.inOrder()).isEmpty();
        assertThat(table.allocateSlot()).as("no slot was kept for the failed segment").isZero();
        assertThat(faulty.openHandles()).isZero();
    }
}
