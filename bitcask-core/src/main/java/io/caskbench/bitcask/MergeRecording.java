package io.caskbench.bitcask;

import io.caskbench.bitcask.events.MergeEvent;

/**
 * Threading: static, called on the merging thread.
 *
 * <p>Emits a merge's JFR event from what the merge returned, so the merger itself carries no
 * recording code.
 */
final class MergeRecording {

    private MergeRecording() {
    }

    /** A begun merge event; committed by {@link #done} or {@link #failed}. */
    static MergeEvent begin() {
        MergeEvent event = new MergeEvent();
        event.begin();
        return event;
    }

    /** Commits {@code event} with the figures of {@code result}, when a recording wants it; null means nothing was merged. */
    static void done(MergeEvent event, String store, MergeResult result) {
        event.end();
        if (result != null && event.shouldCommit()) {
            event.store = store;
            event.inputs = result.removedSegments().size();
            event.outputs = result.addedSegments().size();
            event.bytesRead = result.bytesRead();
            event.bytesWritten = result.bytesAfter();
            event.recordsCopied = result.recordsCopied();
            event.restedMillis = result.restedMillis();
            event.commit();
        }
    }

    /** Commits {@code event} for a merge that threw {@code e}, when a recording wants it. */
    static void failed(MergeEvent event, String store, RuntimeException e) {
        event.end();
        if (event.shouldCommit()) {
            event.store = store;
            event.failure = e.toString();
            event.commit();
        }
    }
}
