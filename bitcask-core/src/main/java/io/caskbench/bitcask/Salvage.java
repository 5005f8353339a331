package io.caskbench.bitcask;

import io.caskbench.bitcask.recovery.SalvageLoad;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A damaged store opened read-only to read it out, from {@link BitCask#salvage}: every record that
 * checks on its own, where open applies only whole batches and never reads a kept tail.
 *
 * <p>Threading: {@link #forEach} and {@link #size} may be called from any thread, as on a store
 * opened read-only; {@link #close} once.
 *
 * <p>Open applies a batch all or nothing, so a batch one member of which fails its check is left
 * out whole, though its other members each check. A salvage applies them, in log order with every
 * other record, and those of the kept tails that open cut off the newest segment (files
 * {@code <segment>.tail-<offset>}), and tells for each key whose value came from one of them where it
 * came from. Every data file is scanned: no hint is read, so none that disagrees with its data can
 * hide a record. A key whose newest record fails its check reads at its older value, or as absent;
 * a key deleted by a record that fails reads at the value the delete hid.
 */
public final class Salvage implements AutoCloseable {

    /** Final, safe everywhere. */
    private final BitCask db;
    /** Final; read-only once open has returned. */
    private final SalvageLoad load;

    /**
     * Where a value came from that open does not apply.
     *
     * @param file         the data file, or the kept tail, that holds it
     * @param offset       where its batch starts in the data file: the batch header when intact, else
     *                     the first bad byte of the range its members lie in
     * @param headerIntact true when the batch's header checks, and only members fail
     */
    public record Origin(Path file, long offset, boolean headerIntact) {

        /** Where it came from, for a person: the file's name, what the batch is, and its offset. */
        @Override
        public String toString() {
            boolean tail = file.getFileName().toString().contains(".tail-");
            return file.getFileName() + (headerIntact ? ": the " + (tail ? "torn or damaged" : "damaged") + " batch at offset "
                    : ": a batch whose header fails its check, in the bad bytes at offset ") + offset;
        }
    }

    /** Receives each live key and its value, and where the value came from. */
    @FunctionalInterface
    public interface Visitor {
        /**
         * One key and its value; {@code origin} is null for a record open applies too, else the
         * damaged batch or kept tail it came from.
         */
        void record(byte[] key, byte[] value, Origin origin);
    }

    private Salvage(BitCask db, SalvageLoad load) {
        this.db = db;
        this.load = load;
    }

    /** Opens the store in the absolute {@code dir}; see {@link BitCask#salvage}. */
    static Salvage open(Path dir) {
        SalvageLoad load = new SalvageLoad();
        return new Salvage(BitCask.openSalvage(dir, load), load);
    }

    /** Calls {@code visitor} with each live key and value, as {@link BitCask#forEach} does, and where it came from. */
    public void forEach(Visitor visitor) {
        Objects.requireNonNull(visitor, "visitor");
        db.forEach((key, value) -> {
            SalvageLoad.Origin o = load.origin(key);
            visitor.record(key, value, o == null ? null : new Origin(o.file(), o.offset(), o.headerIntact()));
        });
    }

    /** Live keys. */
    public long size() {
        return db.size();
    }

    /** Records applied that open does not apply: members of damaged batches and of kept tails, overwritten ones included. */
    public long salvagedRecords() {
        return load.salvaged();
    }

    /** Releases the files. */
    @Override
    public void close() {
        db.close();
    }
}
