package io.caskbench.bitcask;

/**
 * Threading: an enum, safe everywhere.
 *
 * <p>Which segments a {@link BitCask#merge(MergeScope)} takes.
 */
public enum MergeScope {

    /**
     * The segments worth merging, as the selection options of {@link BitCaskOptions} pick them: those
     * with enough dead bytes and the small ones beside them, up to {@link BitCaskOptions#mergeMaxInputBytes()}
     * of input. What {@link BitCask#merge()} and the automatic merge do: the cost follows the garbage.
     */
    SELECTED,

    /**
     * Every segment, however little it holds that is dead: a full compaction whose cost follows the
     * whole store. For offline compaction (the command line's {@code merge}) and tests.
     */
    ALL
}
