package io.partita.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When a write is acknowledged: in FSYNC mode only after a sync that covers it, one sync for every write waiting then;
 * in FLUSH mode with no sync at all. The sync is held at a latch, so the order is checked, not timed.
 */
class GroupCommitTest {

    @TempDir
    Path dir;

    /** A sync that waits for {@link #release} and counts the syncs it let through. */
    private static final class HeldSync implements UnaryOperator<GroupCommitter.Sync> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public GroupCommitter.Sync apply(GroupCommitter.Sync real) {
            return () -> {
                calls.incrementAndGet();
                entered.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                real.sync();
            };
        }
    }

    @Test
    void shouldAcknowledgeAnFsyncWriteOnlyAfterTheSyncThatCoversIt() throws Exception {
        HeldSync sync = new HeldSync();
        try (JournalStore store = JournalStore.open(StoreSettings.of(dir, Durability.FSYNC), sync)) {
            CompletableFuture<Void> first = store.append(1, List.of(Entries.entry("a-1", 0, 1)));
            assertTrue(sync.entered.await(10, TimeUnit.SECONDS));

            // Written to the engine already (the sync comes after the write), but not acknowledged.
            assertTrue(store.find(1, "a-1", "tx-a-1-0", Long.MAX_VALUE).isPresent());
            assertFalse(first.isDone());

            sync.release.countDown();
            first.get(10, TimeUnit.SECONDS);
            assertEquals(1, store.syncs());
        }
    }

    @Test
    void shouldCoverEveryWriteThatWaitedDuringASyncWithOneMoreSync() throws Exception {
        HeldSync sync = new HeldSync();
        try (JournalStore store = JournalStore.open(StoreSettings.of(dir, Durability.FSYNC), sync)) {
            CompletableFuture<Void> first = store.append(1, List.of(Entries.entry("a-0", 0, 1)));
            assertTrue(sync.entered.await(10, TimeUnit.SECONDS));
            List<CompletableFuture<Void>> waiting = new ArrayList<>();
            for (int writer = 1; writer <= 100; writer++) {
                waiting.add(store.append(writer % 7, List.of(Entries.entry("a-" + writer, 0, 1))));
            }
            assertTrue(waiting.stream().noneMatch(CompletableFuture::isDone));

            sync.release.countDown();
            CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

            assertTrue(first.isDone());
            assertEquals(2, sync.calls.get());
            assertEquals(2, store.rounds());
        }
    }

    @Test
    void shouldAcknowledgeAFlushWriteWithoutASync() throws Exception {
        HeldSync sync = new HeldSync();
        try (JournalStore store = JournalStore.open(StoreSettings.of(dir, Durability.FLUSH), sync)) {
            store.append(1, List.of(Entries.entry("a-1", 0, 1))).get(10, TimeUnit.SECONDS);

            assertEquals(0, sync.calls.get());
            assertEquals(0, store.syncs());
        }
    }

    @Test
    void shouldRefuseAWriteAtOnceRatherThanWaitWhenTheQueueIsFull() throws Exception {
        HeldSync sync = new HeldSync();
        StoreSettings settings = new StoreSettings(dir, Durability.FSYNC, StoreSettings.DEFAULT_CACHE_BYTES,
                StoreSettings.DEFAULT_WRITE_BUFFER_BYTES, 3);
        try (JournalStore store = JournalStore.open(settings, sync)) {
            CompletableFuture<Void> syncing = store.append(1, List.of(Entries.entry("a-0", 0, 1)));
            assertTrue(sync.entered.await(10, TimeUnit.SECONDS));
            List<CompletableFuture<Void>> queued = new ArrayList<>();
            for (int writer = 1; writer <= 3; writer++) {
                queued.add(store.append(1, List.of(Entries.entry("a-" + writer, 0, 1))));
            }

            CompletableFuture<Void> refused = store.append(1, List.of(Entries.entry("a-4", 0, 1)));

            ExecutionException failure = assertThrows(ExecutionException.class, () -> refused.get(1, TimeUnit.SECONDS));
            assertInstanceOf(StoreBusy.class, failure.getCause());
            sync.release.countDown();
            CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertTrue(syncing.isDone());
            assertTrue(store.find(1, "a-4", "tx-a-4-0", Long.MAX_VALUE).isEmpty());
        }
    }

    @Test
    void shouldFailWritesSubmittedAfterClose() {
        JournalStore store = JournalStore.open(StoreSettings.of(dir, Durability.FLUSH));
        store.close();

        CompletableFuture<Void> late = store.append(1, List.of(Entries.entry("a-1", 0, 1)));

        ExecutionException failure = assertThrows(ExecutionException.class, () -> late.get(1, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, failure.getCause());
    }
}
