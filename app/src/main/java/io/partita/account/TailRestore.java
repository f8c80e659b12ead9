package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.LocalStores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Puts back into a member's accounts, just before a split-brain merge hands them to the other side, the entries their
 * tails let go of since the hold cutoff. A tail holds what was recorded since then only up to
 * {@link JournalSettings#MAX_HELD} entries (so that a busy account's value stays small); past that, the oldest leave
 * it once journaled, like any other. The other side does not take this side's journal (its seqs would clash,
 * {@link JournalMergePolicy}), so without this an account that took more than {@code MAX_HELD} transactions on this
 * side would merge without the oldest of them. With it, every transaction this side recorded since the cutoff is in
 * its account's tail when {@link AccountMergePolicy} joins the two sides, however many there were.
 * <b>Threads:</b> {@link #beforeMerge} on the thread that merges this member into the other cluster (the
 * {@code MERGING} lifecycle event, fired before Hazelcast collects the stores to merge), which waits while each of the
 * member's own partitions is restored on its partition thread. {@link #restored} is a plain function.
 *
 * <p>A restore scans the partition's journal map for entries recorded since the cutoff and, with the journal on disk
 * (where the map keeps only its last seconds), reads from the member's disk the entries just below the tail of each
 * account whose tail may have let go of some since then ({@link #shed}). Each account restored is replaced in this
 * member's store only (no backup: the member's data is merged and then dropped).
 */
final class TailRestore {

    private static final Logger LOG = LoggerFactory.getLogger(TailRestore.class);
    /** A bound on the wait, far above a scan of any journal this member can hold; a merge must not hang on it. */
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private TailRestore() {
    }

    /**
     * {@code account} with the entries of {@code journaled} that directly precede its tail put back in front of it:
     * the run of seqs just below the tail's oldest, as far as it goes without a gap. Entries of other accounts, and
     * entries the tail holds, are ignored. Answers {@code account} itself when there is nothing to put back.
     */
    static Account restored(String accountId, Account account, List<JournalEntry> journaled) {
        Map<Long, JournalEntry> bySeq = new HashMap<>(journaled.size() * 2);
        for (JournalEntry entry : journaled) {
            if (entry.accountId().equals(accountId)) {
                bySeq.put(entry.seq(), entry);
            }
        }
        List<JournalEntry> earlier = new ArrayList<>();
        for (long seq = account.version() - Tail.size(account.tail()); bySeq.containsKey(seq); seq--) {
            earlier.add(bySeq.get(seq));
        }
        if (earlier.isEmpty()) {
            return account;
        }
        Collections.reverse(earlier);
        return account.withEarlierEntries(Tail.encode(earlier));
    }

    /**
     * Whether {@code account}'s tail may have let go of entries recorded at or after {@code since}: its oldest entry was
     * recorded since then and is not the account's first.
     */
    static boolean shed(Account account, long since) {
        byte[] tail = account.tail();
        return tail.length > 0 && Tail.oldestAt(tail) >= since && account.version() > Tail.size(tail);
    }

    /**
     * Restores the tails of every account this member owns from the entries recorded at or after {@code since} (epoch
     * milliseconds) that its journal map holds and, with the journal on disk, that its disk holds (where tails let go
     * of entries the map no longer keeps, {@link LedgerDisk#tailsOnDisk}). Logs what it did; a failure is logged and
     * the merge goes on.
     */
    static void beforeMerge(HazelcastInstance hazelcast, MemberLedger ledger, long since) {
        LocalStores stores = LocalStores.of(hazelcast);
        AtomicLong accounts = new AtomicLong();
        AtomicLong entries = new AtomicLong();
        try {
            stores.onOwnedPartitions(partition -> {
                Map<String, List<JournalEntry>> recent = new HashMap<>();
                stores.forEach(AccountFeature.JOURNAL, partition, (key, value) -> {
                    if (key instanceof JournalKey journalKey && value instanceof JournalRecord record
                            && record.at() >= since) {
                        recent.computeIfAbsent(journalKey.accountId(), id -> new ArrayList<>())
                                .add(record.entry(journalKey));
                    }
                });
                if (ledger.onDisk()) {
                    stores.forEach(AccountFeature.ACCOUNTS, partition, (key, value) -> {
                        if (value instanceof Account account && shed(account, since)) {
                            String accountId = (String) key;
                            recent.computeIfAbsent(accountId, id -> new ArrayList<>()).addAll(ledger.onOwnDiskSince(
                                    partition, accountId, account.version() - Tail.size(account.tail()) + 1, since));
                        }
                    });
                }
                recent.forEach((accountId, journaled) -> {
                    if (stores.value(AccountFeature.ACCOUNTS, partition, accountId) instanceof Account account) {
                        Account restored = restored(accountId, account, journaled);
                        if (restored != account) {
                            stores.replaceLocally(AccountFeature.ACCOUNTS, partition, accountId, restored);
                            accounts.incrementAndGet();
                            entries.addAndGet(Tail.size(restored.tail()) - Tail.size(account.tail()));
                        }
                    }
                });
            }, TIMEOUT);
            LOG.info("Before merging into the other side of a network split: {} journaled entries recorded since {} "
                    + "put back into the tails of {} accounts", entries.get(), since, accounts.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("Restoring tails before a merge was interrupted after {} accounts", accounts.get());
        } catch (RuntimeException e) {
            LOG.warn("Restoring tails before a merge failed after {} accounts: {}", accounts.get(), e.toString());
        }
    }
}
