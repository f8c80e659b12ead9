package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.partita.web.Backlog;
import jakarta.inject.Singleton;

/**
 * The journal writer's queue as a {@link Backlog}: an entry waits in its account's tail until the writer has copied it
 * to the journal, and the writer's copies go through the same partition threads as the transactions. Under a load the
 * partition threads cannot also journal, the queue (and with it every busy account's tail, which each transaction
 * then reads) would grow until the node slows down for good; past {@link #MAX_WAITING} entries the node refuses new
 * work with 503 until the writer has caught up. Not while every tail entry is on the member's disk (flush and fsync
 * mode, outside a merge's aftermath): tails then let go of entries without the journal map.
 */
@Singleton
final class JournalBacklog implements Backlog {

    /** A fifth of what the writer queues at most ({@link JournalWriter#MAX_PENDING}): a few seconds of its work. */
    static final int MAX_WAITING = JournalWriter.MAX_PENDING / 5;

    private final HazelcastInstance hazelcast;

    JournalBacklog(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
    }

    @Override
    public String refusal() {
        MemberLedger ledger = MemberLedger.of(hazelcast);
        if (ledger.tailsOnDisk()) {
            // Tails let go of entries without the map, whose copy is then SQL's window only: it skips what it cannot
            // keep up with (JournalWriter#MAX_PENDING_ON_DISK) rather than hold up the ledger.
            return null;
        }
        int waiting = ledger.journalPending();
        return waiting <= MAX_WAITING ? null : "This node's journal writer is behind (" + waiting
                + " entries waiting): nothing was done. Retry shortly, or on another node.";
    }
}
