package io.caskbench.bitcask.log;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The write protocol's two ways in: an exclusive change never runs while a put is publishing, a
 * step that throws counts nothing, and write groups' leaders take the lock one at a time.
 */
class WriteProtocolTest {

    /** Threads of their own: the common pool may have a single thread on a small machine. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anExclusiveChangeWaitsForEveryPutPublishing() throws Exception {
        WriteProtocol protocol = new WriteProtocol();
        AtomicBoolean publishing = new AtomicBoolean();
        protocol.lead(() -> {
            protocol.countPut();
            publishing.set(true);
            return null;
        });
        CompletableFuture<Boolean> change = CompletableFuture.supplyAsync(
                () -> protocol.exclusive(() -> publishing.get()), threads);
        assertThatThrownBy(() -> change.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        publishing.set(false);
        protocol.published();
        assertThat(change.get(30, TimeUnit.SECONDS)).as("the change saw a put publishing").isFalse();
    }

    @Test
    void aStepThatThrowsCountsNoPutAndLetsGoOfTheLock() {
        WriteProtocol protocol = new WriteProtocol();
        assertThatThrownBy(() -> protocol.lead(() -> {
            throw new IllegalStateException("no room");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(protocol.exclusive(protocol::publishing)).isZero(); // and it returns at once
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void leadersWriteOneAtATime() throws Exception {
        WriteProtocol protocol = new WriteProtocol();
        AtomicBoolean inside = new AtomicBoolean();
        AtomicBoolean overlapped = new AtomicBoolean();
        CompletableFuture<?>[] puts = new CompletableFuture<?>[4];
        for (int t = 0; t < puts.length; t++) {
            puts[t] = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 2000; i++) {
                    protocol.lead(() -> {
                        protocol.countPut();
                        overlapped.compareAndSet(false, !inside.compareAndSet(false, true));
                        inside.set(false);
                        return null;
                    });
                    protocol.published();
                }
            }, threads);
        }
        CompletableFuture.allOf(puts).get(60, TimeUnit.SECONDS);
        assertThat(overlapped).isFalse();
        assertThat(protocol.exclusive(protocol::publishing)).isZero();
    }
}
