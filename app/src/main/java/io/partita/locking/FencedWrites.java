package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.Ledger;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.node.BackedUpCalls;
import io.partita.node.DiskShares;
import io.partita.refusal.Refusal;
import io.partita.store.StoredEntry;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Read, check, write: one transaction on one account by a thread that holds the account's lock with {@code fence}. It
 * decides exactly as the partitioned path does and never applies a txId twice; past the request's {@link Deadline} it
 * answers 503 and writes nothing more. It runs on the calling thread, blocks on the grid and keeps no state between
 * calls.
 */
final class FencedWrites {

    /*
     * Read, check, write
     *
     * It reads the account, then (only when the txId is not in the account's tail) the txId's journal entry, decides
     * with Ledger.decide exactly as the partitioned path does, and writes with a FencedWrite. The lock keeps other
     * locked-mode writers out; writers that take no lock (partitioned mode, transfer recovery) may still move the
     * account between the read and the write, and then the write is refused and the decision is taken again on a fresh
     * read. A refused fence means this holder lost its lock: nothing was written, and the client retries with the same
     * id.
     *
     * Why the account is read before the journal
     *
     * An entry leaves the account's tail only once the journal holds it, so a txId missing from the account when it is
     * read is, if recorded at all, in the journal when the journal is read afterwards. Read the other way round, the
     * entry could reach the journal just after the journal read and leave the account just before the account read, and
     * the txId would be applied a second time. The write re-checks both places at the owner
     * (FencedWrite.Result.DUPLICATE) as well, and with the journal on disk it also finds a txId older than the journal
     * map keeps: the next attempt then looks it up on the owner's disk too, and answers from it.
     *
     * Time
     *
     * The deadline is checked before every attempt and before the write; past it the request answers 503 and writes
     * nothing more. A write that was sent but not confirmed in time answers 503 "may or may not have been applied"; the
     * retry's duplicate check tells which.
     */

    /** Enough to get through a burst of unlocked writers on a hot account; beyond it the client retries. */
    static final int MAX_ATTEMPTS = 100;
    static final Duration RETRY_AFTER = Deadline.RETRY_AFTER;

    private final IMap<String, Account> accounts;
    private final IMap<JournalKey, JournalRecord> journal;
    private final Writer writer;
    /** The owner's disk, by account and txId: entries older than the journal map keeps (none in memory mode). */
    private final DiskLookup disk;

    /**
     * The owner's disk: the entry under a txId that an account at {@code throughSeq} counts
     * ({@code DiskShares.find}).
     */
    @FunctionalInterface
    interface DiskLookup {
        CompletionStage<Optional<StoredEntry>> find(String accountId, String txId, long throughSeq);
    }

    /**
     * Sends a {@link FencedWrite} to the account's owner and answers its {@link FencedWrite.Result}'s name. The node's
     * is {@code BackedUpCalls.submitToKey}: the owner queues the disk write and answers once it is durable, so no
     * partition thread waits for the disk.
     */
    @FunctionalInterface
    interface Writer {
        CompletionStage<String> write(String accountId, FencedWrite write);
    }

    FencedWrites(HazelcastInstance hazelcast) {
        this(AccountFeature.accounts(hazelcast), AccountFeature.journal(hazelcast),
                (accountId, write) -> BackedUpCalls.submitToKey(hazelcast, AccountFeature.ACCOUNTS, accountId, write),
                (accountId, txId, throughSeq) -> DiskShares.find(hazelcast, accountId, txId, throughSeq));
    }

    FencedWrites(IMap<String, Account> accounts, IMap<JournalKey, JournalRecord> journal, Writer writer,
                 DiskLookup disk) {
        this.accounts = accounts;
        this.journal = journal;
        this.writer = writer;
        this.disk = disk;
    }

    TxOutcome apply(long fence, String accountId, TxRequest request, Deadline deadline) {
        // Set once the owner found the txId where this thread did not look: older than the journal map keeps.
        boolean onDisk = false;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            deadline.check();
            Account account = deadline.await(accounts.getAsync(accountId));
            if (account == null) {
                return TxOutcome.notFound();
            }
            boolean lookOnDisk = onDisk;   // the lookup below needs it final
            Ledger.Decision decision = Ledger.decide(accountId, account, request, txId -> {
                JournalKey key = new JournalKey(accountId, txId);
                JournalRecord record = deadline.await(journal.getAsync(key));
                if (record != null || !lookOnDisk) {
                    return record == null ? null : record.entry(key);
                }
                return deadline.await(disk.find(accountId, txId, account.version())).map(JournalEntry::of)
                        .orElse(null);
            });
            if (decision.recorded() == null) {
                return decision.outcome();
            }
            deadline.beforeWrite();
            FencedWrite.Result result = FencedWrite.Result.valueOf(deadline.await(writer.write(accountId,
                    new FencedWrite(fence, account.version(), decision.recorded()))));
            switch (result) {
                case WRITTEN:
                    return decision.outcome();
                case NOT_FOUND:
                    return TxOutcome.notFound();
                case STALE_FENCE:
                    throw Refusal.unavailable("The lock on account '" + accountId + "' was lost before the "
                            + "write (its session expired) and nothing was written. Retry with the same id.",
                            RETRY_AFTER);
                case MOVED:
                    continue;
                case DUPLICATE:
                    onDisk = true;
                    continue;
                default:
                    throw new IllegalStateException("Unknown result " + result);
            }
        }
        throw Refusal.unavailable("Account '" + accountId + "' is changing too fast for a locked write; nothing "
                + "was written. Retry with the same id.", RETRY_AFTER);
    }
}
