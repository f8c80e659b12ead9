package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.partita.account.MemberLedger;
import io.partita.account.MergeReport;
import io.partita.node.PartitionSentinels;

/**
 * The ledger's own bookkeeping in {@code /prometheus}, read from the member when scraped: the journal writer
 * ({@code partita_journal_written_total}, {@code partita_journal_pending}), split-brain merges
 * ({@code partita_merge_accounts_joined_total}, {@code partita_merge_transactions_added_total},
 * {@code partita_merge_conflicts_total}) and lost partitions ({@code partita_partitions_lost_events_total}).
 * All are this node's own counts.
 * The functions run on the scraping thread and read counters the member updates on its own threads.
 */
@Context
public class LedgerMeters {

    LedgerMeters(MeterRegistry registry, HazelcastInstance hazelcast) {
        MemberLedger ledger = MemberLedger.of(hazelcast);
        MergeReport merges = ledger.merges();
        Meters.counter(registry, "partita.journal.written", ledger, MemberLedger::journalWritten,
                "Journal entries this node's journal writer wrote");
        Meters.gauge(registry, "partita.journal.pending", ledger, MemberLedger::journalPending,
                "Entries waiting for this node's journal writer");
        Meters.counter(registry, "partita.journal.skipped", ledger, MemberLedger::journalSkipped,
                "Journal entries this node's writer did not copy to the journal map, its queue full (on disk all the "
                        + "same with the journal on disk)");
        Meters.counter(registry, "partita.merge.accounts.joined", merges, MergeReport::accountsJoined,
                "Accounts both sides of a network split held, joined here by the merge");
        Meters.counter(registry, "partita.merge.transactions.added", merges, MergeReport::transactionsAdded,
                "Transactions only the other side of a split had recorded, added by the merge");
        Meters.counter(registry, "partita.merge.conflicts", merges, MergeReport::conflicts,
                "Merges that left an account below its overdraft limit (both sides debited it)");
        Meters.counter(registry, "partita.partitions.lost.events", PartitionSentinels.of(hazelcast),
                PartitionSentinels::lostEvents, "Partition-lost events: every copy of a partition's data gone");
    }
}
