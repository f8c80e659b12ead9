package io.partita.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The store as the journal uses it, on real files in a temporary directory. */
class JournalStoreTest {

    @TempDir
    Path dir;

    private static String named(StoredEntry entry) {
        return entry.accountId() + "/" + entry.seq() + "/" + entry.txId();
    }

    private JournalStore open(String name) {
        return JournalStore.open(StoreSettings.of(dir.resolve(name), Durability.FLUSH));
    }

    private static void await(java.util.concurrent.CompletableFuture<Void> write) throws Exception {
        write.get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldReadAnAccountsHistoryNewestFirstInPages() throws Exception {
        try (JournalStore store = open("m1")) {
            await(store.append(7, Entries.range("a-1", 0, 24, 1_000)));
            await(store.append(7, Entries.range("a-10", 0, 3, 1_000)));   // shares a prefix with a-1, not a key

            List<Long> seen = new ArrayList<>();
            long before = Long.MAX_VALUE;
            int pages = 0;
            HistoryPage page;
            do {
                page = store.history(7, "a-1", before, 10);
                page.entries().forEach(entry -> seen.add(entry.seq()));
                before = page.nextBefore();
                pages++;
            } while (!page.last());

            assertEquals(3, pages);
            List<Long> expected = new ArrayList<>();
            for (long seq = 24; seq >= 0; seq--) {
                expected.add(seq);
            }
            assertEquals(expected, seen);
            assertEquals(Entries.entry("a-1", 24, 1_024), store.history(7, "a-1", Long.MAX_VALUE, 1).entries().get(0));
            assertEquals(List.of(), store.history(8, "a-1", Long.MAX_VALUE, 10).entries());
        }
    }

    @Test
    void shouldFindARecordedTxIdAndNoOtherAccountsOrPartitions() throws Exception {
        try (JournalStore store = open("m1")) {
            await(store.append(3, Entries.range("a-1", 0, 99, 1_000)));

            assertEquals(Entries.entry("a-1", 42, 1_042), store.find(3, "a-1", "tx-a-1-42", Long.MAX_VALUE).orElseThrow());
            assertTrue(store.find(3, "a-1", "tx-a-1-100", Long.MAX_VALUE).isEmpty());
            assertTrue(store.find(3, "a-2", "tx-a-1-42", Long.MAX_VALUE).isEmpty());
            assertTrue(store.find(4, "a-1", "tx-a-1-42", Long.MAX_VALUE).isEmpty());
        }
    }

    @Test
    void shouldForgetATxIdWhoseSeqAnotherEntryTookOver() throws Exception {
        try (JournalStore store = open("m1")) {
            await(store.append(3, List.of(new StoredEntry("a-1", 5, "first", 1_000, new byte[] {1}))));
            await(store.append(3, List.of(new StoredEntry("a-1", 5, "second", 1_001, new byte[] {2}))));

            assertTrue(store.find(3, "a-1", "first", Long.MAX_VALUE).isEmpty());
            assertEquals(1_001, store.find(3, "a-1", "second", Long.MAX_VALUE).orElseThrow().at());
        }
    }

    @Test
    void shouldAddOnlyTheEntriesItLacksFromAnotherDisksCopy() throws Exception {
        try (JournalStore store = open("m1")) {
            await(store.append(3, List.of(new StoredEntry("a-1", 5, "live", 1_000, new byte[] {1}))));

            int written = store.writeAbsent(3, List.of(new StoredEntry("a-1", 4, "older", 900, new byte[] {4}),
                    new StoredEntry("a-1", 5, "stale", 950, new byte[] {5})));

            assertEquals(1, written);
            assertEquals(900, store.find(3, "a-1", "older", Long.MAX_VALUE).orElseThrow().at());
            assertEquals(1_000, store.find(3, "a-1", "live", Long.MAX_VALUE).orElseThrow().at());
            assertTrue(store.find(3, "a-1", "stale", Long.MAX_VALUE).isEmpty());
            assertEquals(List.of(5L, 4L), store.history(3, "a-1", Long.MAX_VALUE, 10).entries().stream()
                    .map(StoredEntry::seq).toList());
        }
    }

    @Test
    void shouldAddEveryEntryItLacksAmongRunsItHoldsWhateverTheOrderTheyCome() throws Exception {
        try (JournalStore store = open("m1")) {
            // Held: a-1 seqs 10..19 and 30..39, a-3 seqs 0..49; a neighbouring partition holds a-2 whole.
            await(store.append(3, Entries.range("a-1", 10, 19, 1_000)));
            await(store.append(3, Entries.range("a-1", 30, 39, 1_000)));
            await(store.append(3, Entries.range("a-3", 0, 49, 1_000)));
            await(store.append(4, Entries.range("a-2", 0, 49, 1_000)));
            List<StoredEntry> copy = new ArrayList<>();
            for (String account : List.of("a-1", "a-2", "a-3", "a-4")) {
                copy.addAll(Entries.range(account, 0, 49, 1_000));
            }
            Collections.shuffle(copy, new Random(7));

            int written = store.writeAbsent(3, copy);

            // a-1 lacked 30 of its 50, a-2 (on partition 3) and a-4 all 50, a-3 none.
            assertEquals(30 + 50 + 50, written);
            for (String account : List.of("a-1", "a-2", "a-3", "a-4")) {
                assertEquals(50, store.history(3, account, Long.MAX_VALUE, 100).entries().size(), account);
            }
            assertEquals(50, store.history(4, "a-2", Long.MAX_VALUE, 100).entries().size());
            assertEquals(0, store.writeAbsent(3, copy));
        }
    }

    /**
     * Before entries are sent from another disk, the runs they make are offered: the store names each run it lacks an
     * entry of (at either end, in the middle, or on another partition) and no run it holds whole, whatever else it
     * holds around them.
     */
    @Test
    void shouldNameTheRunsOfAnotherDisksCopyItLacksAnEntryOf() throws Exception {
        try (JournalStore store = open("m1")) {
            // Held: a-1 seqs 10..19 and 30..39, a-3 seqs 0..49, a-10 seqs 0..9; a-2 on partition 4 only.
            await(store.append(3, Entries.range("a-1", 10, 19, 1_000)));
            await(store.append(3, Entries.range("a-1", 30, 39, 1_000)));
            await(store.append(3, Entries.range("a-3", 0, 49, 1_000)));
            await(store.append(3, Entries.range("a-10", 0, 9, 1_000)));
            await(store.append(4, Entries.range("a-2", 0, 49, 1_000)));
            List<StoredEntry> copy = new ArrayList<>();
            for (String account : List.of("a-3", "a-1", "a-2", "a-10")) {
                copy.addAll(Entries.range(account, 0, 49, 1_000));
            }
            copy.removeIf(entry -> entry.accountId().equals("a-1") && (entry.seq() < 10 || entry.seq() > 39));
            copy.removeIf(entry -> entry.accountId().equals("a-3") && entry.seq() >= 20 && entry.seq() < 25);
            Collections.shuffle(copy, new Random(11));

            List<SeqRun> runs = SeqRun.of(copy);
            int[] starts = SeqRun.starts(runs);

            // Sorted by account, newest first, cut where a seq is skipped.
            assertEquals(List.of(new SeqRun("a-1", 39, 10), new SeqRun("a-10", 49, 0), new SeqRun("a-2", 49, 0),
                    new SeqRun("a-3", 49, 25), new SeqRun("a-3", 19, 0)), runs);
            assertArrayEquals(new int[] {0, 30, 80, 130, 155, 175}, starts);
            assertEquals(39, copy.get(starts[0]).seq());
            assertEquals("a-3", copy.get(starts[4]).accountId());
            assertEquals(19, copy.get(starts[4]).seq());
            BitSet lacking = store.lacking(3, runs);
            // a-1 lacks 20..29 in the middle, a-10 40..49 at the newest end, a-2 everything on this partition.
            assertEquals(BitSet.valueOf(new long[] {0b00111}), lacking);
            assertEquals(new BitSet(), store.lacking(3, List.of(new SeqRun("a-1", 19, 10), new SeqRun("a-1", 39, 30),
                    new SeqRun("a-10", 9, 0))));
            // A run past the oldest end of what is held (a-1 holds 10..19, not 9) is lacking too.
            BitSet oldestEnd = new BitSet();
            oldestEnd.set(1);
            assertEquals(oldestEnd, store.lacking(3, List.of(new SeqRun("a-3", 49, 0), new SeqRun("a-1", 19, 9),
                    new SeqRun("a-1", 15, 12))));

            store.writeAbsent(3, copy);
            assertEquals(new BitSet(), store.lacking(3, runs));
        }
    }

    @Test
    void shouldDeleteOnlyEntriesRecordedBeforeTheRetentionCutoff() throws Exception {
        try (JournalStore store = open("m1")) {
            for (int partition = 0; partition < 5; partition++) {
                await(store.append(partition, Entries.range("a-" + partition, 0, 99, 10_000)));
            }

            long deleted = store.expireBefore(10_050);

            assertEquals(5 * 50, deleted);
            for (int partition = 0; partition < 5; partition++) {
                String account = "a-" + partition;
                HistoryPage all = store.history(partition, account, Long.MAX_VALUE, 1_000);
                assertEquals(50, all.entries().size());
                assertEquals(50, all.entries().get(49).seq());
                assertTrue(store.find(partition, account, "tx-" + account + "-49", Long.MAX_VALUE).isEmpty());
                assertTrue(store.find(partition, account, "tx-" + account + "-50", Long.MAX_VALUE).isPresent());
            }
            assertEquals(0, store.expireBefore(10_050));
        }
    }

    @Test
    void shouldExportAPartitionAndImportItElsewhereEntryForEntry() throws Exception {
        List<StoredEntry> exported = new ArrayList<>();
        List<Integer> chunkSizes = new ArrayList<>();
        try (JournalStore from = open("from"); JournalStore to = open("to")) {
            await(from.append(11, Entries.range("a-1", 0, 149, 1_000)));
            await(from.append(11, Entries.range("b-2", 0, 99, 1_000)));
            await(from.append(12, Entries.range("c-3", 0, 9, 1_000)));

            long count = from.export(11, 64, chunk -> {
                chunkSizes.add(chunk.size());
                exported.addAll(chunk);
                to.append(11, chunk).join();
            });

            assertEquals(250, count);
            assertEquals(List.of(64, 64, 64, 58), chunkSizes);
            assertEquals(from.history(11, "a-1", Long.MAX_VALUE, 1_000), to.history(11, "a-1", Long.MAX_VALUE, 1_000));
            assertEquals(from.history(11, "b-2", Long.MAX_VALUE, 1_000), to.history(11, "b-2", Long.MAX_VALUE, 1_000));
            assertTrue(to.find(11, "b-2", "tx-b-2-7", Long.MAX_VALUE).isPresent());
            assertEquals(List.of(), to.history(12, "c-3", Long.MAX_VALUE, 10).entries());
            // The txId and expiry records were rebuilt on import: retention deletes there too.
            assertEquals(2 * 50, to.expireBefore(1_050));
        }
    }

    @Test
    void shouldReadAPartitionsShareInRunsThatResumeWhereTheLastStopped() throws Exception {
        try (JournalStore store = open("share")) {
            await(store.append(10, Entries.range("z-0", 0, 4, 1_000)));
            await(store.append(11, Entries.range("a-1", 0, 149, 1_000)));
            await(store.append(11, Entries.range("b-2", 0, 99, 1_000)));
            await(store.append(12, Entries.range("c-3", 0, 9, 1_000)));
            List<StoredEntry> exported = new ArrayList<>();
            store.export(11, 1_000, exported::addAll);

            List<StoredEntry> shared = new ArrayList<>();
            List<Integer> runs = new ArrayList<>();
            byte[] from = null;
            SharePage page;
            do {
                page = store.share(11, from, 64);
                runs.add(page.entries().size());
                shared.addAll(page.entries());
                from = page.next();
            } while (!page.last());

            assertEquals(List.of(64, 64, 64, 58), runs);
            assertEquals(250, shared.size());
            assertEquals(exported.stream().map(JournalStoreTest::named).toList(),
                    shared.stream().map(JournalStoreTest::named).toList(),
                    "the whole partition, in key order, nothing of the partitions beside it");
            assertEquals(List.of(), store.share(13, null, 64).entries());
            assertTrue(store.share(13, null, 64).last());
            byte[] elsewhere = store.share(12, null, 5).next();
            assertThrows(IllegalArgumentException.class, () -> store.share(11, elsewhere, 64));
        }
    }

    @Test
    void shouldDropAPartitionAndNothingElse() throws Exception {
        try (JournalStore store = open("m1")) {
            for (int partition : new int[] {9, 10, 11}) {
                await(store.holdPartition(partition));
                await(store.append(partition, Entries.range("a-" + partition, 0, 9, 1_000)));
            }

            await(store.dropPartition(10));

            assertTrue(store.history(10, "a-10", Long.MAX_VALUE, 100).entries().isEmpty());
            assertTrue(store.find(10, "a-10", "tx-a-10-3", Long.MAX_VALUE).isEmpty());
            assertEquals(10, store.history(9, "a-9", Long.MAX_VALUE, 100).entries().size());
            assertEquals(10, store.history(11, "a-11", Long.MAX_VALUE, 100).entries().size());
            BitSet held = new BitSet();
            held.set(9);
            held.set(11);
            assertEquals(held, store.heldPartitions());
        }
    }

    @Test
    void shouldKeepTheTxIdOfATransactionRecordedAgainUnderALaterSeqWhenItsFirstEntryExpires() throws Exception {
        try (JournalStore store = open("m1")) {
            StoredEntry first = new StoredEntry("a-1", 1, "tx-x", 1_000, Entries.payload("a-1", 1));
            // A merge recorded the same transaction again, under a new seq and later.
            StoredEntry again = new StoredEntry("a-1", 5, "tx-x", 5_000, Entries.payload("a-1", 5));
            await(store.append(3, List.of(first)));
            await(store.append(3, List.of(again)));

            assertEquals(1, store.expireBefore(2_000));

            assertEquals(List.of(again), store.history(3, "a-1", Long.MAX_VALUE, 10).entries());
            assertEquals(again, store.find(3, "a-1", "tx-x", Long.MAX_VALUE).orElseThrow());
            assertEquals(1, store.expireBefore(6_000));
            assertTrue(store.find(3, "a-1", "tx-x", Long.MAX_VALUE).isEmpty());
        }
    }

    @Test
    void shouldKeepEntriesPartitionsTheMarkerAndTheMembersAcrossACloseAndReopen() throws Exception {
        try (JournalStore store = open("m1")) {
            assertTrue(store.marker().isEmpty());
            assertEquals(new DataMarker("ledger", 1_234), store.markHoldsData("ledger", 1_234));
            assertEquals(new DataMarker("ledger", 1_234), store.markHoldsData("ledger", 9_999));
            await(store.holdPartition(270));
            await(store.append(270, Entries.range("a-1", 0, 9, 1_000)));
            assertEquals(Set.of(), store.members());
            store.recordMembers(List.of("n0", "n1", "n2"));
            store.recordMembers(List.of("n0", "n1"));
        }
        try (JournalStore store = open("m1")) {
            assertEquals(Set.of("n0", "n1"), store.members(), "the last record, whole");
            assertEquals(new DataMarker("ledger", 1_234), store.marker().orElseThrow());
            assertTrue(store.heldPartitions().get(270), "the members' record is not a held partition");
            assertEquals(1, store.heldPartitions().cardinality());
            assertTrue(store.heldPartitions().get(270));
            assertEquals(10, store.history(270, "a-1", Long.MAX_VALUE, 100).entries().size());
        }
    }

    @Test
    void shouldRefuseAnIdTooLongForItsLengthByteBeforeQueueingAnything() {
        try (JournalStore store = open("m1")) {
            StoredEntry tooLong = new StoredEntry("a".repeat(256), 0, "t", 0, new byte[0]);
            assertThrows(IllegalArgumentException.class, () -> store.append(0, List.of(tooLong)));
            assertFalse(store.rounds() > 0);
        }
    }

    @Test
    @SuppressWarnings("try") // the resource is held for the block's length, not used in it
    void shouldRefuseASecondOpenOfOneDirectory() {
        try (JournalStore store = open("m1")) {
            assertThrows(StoreFailure.class, () -> open("m1"));
        }
    }

    @Test
    void shouldGiveEachMemberItsOwnDirectory() {
        assertEquals(dir.resolve("node-1_5701"), StoreSettings.memberDirectory(dir, "node-1:5701"));
        assertThrows(IllegalArgumentException.class, () -> StoreSettings.memberDirectory(dir, ".."));
    }
}
