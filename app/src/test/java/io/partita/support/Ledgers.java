package io.partita.support;

import com.hazelcast.core.HazelcastInstance;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.MemberLedger;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.awaitility.Awaitility.await;

/** The ledger as a test checks it once the journal writers have caught up. */
public final class Ledgers {

    private Ledgers() {
    }

    /**
     * Every journal entry, once no account's tail holds an entry the journal lacks (the journal writers copy entries
     * within tens of milliseconds; a crashed member's queue is swept up from the tails within seconds).
     */
    public static List<JournalEntry> settledJournal(HazelcastInstance member) {
        // Not "every tail empty": tails keep journaled entries on purpose, for a merge (a member missing, or the hold);
        // an entry older than the hold cutoff is still to be trimmed, so the ledger is not settled until it is.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Set<JournalKey> journaled = AccountFeature.journal(member).keySet();
            long holdCutoff = MemberLedger.of(member).holdCutoff();
            return AccountFeature.accounts(member).entrySet().stream().allMatch(account ->
                    account.getValue().tailEntries(account.getKey()).stream()
                            .allMatch(entry -> journaled.contains(entry.key()) && entry.at() >= holdCutoff));
        });
        return AccountFeature.journal(member).entrySet().stream()
                .map(entry -> entry.getValue().entry(entry.getKey()))
                .toList();
    }
}
