package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.Ledger;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.cluster.Maps;
import io.partita.web.ApiException;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Read, check, write: one transaction on one account by a thread that holds the account's lock with {@code fence}.
 *
 * <p>Runs on the calling thread and blocks on the grid: it reads the account and the journal entry of the txId (in
 * parallel; the entry matters only when the txId is no longer among the account's recent ones), decides with
 * {@link Ledger#decide} exactly as the partitioned path does, and writes with a {@link FencedWrite}. The lock keeps
 * other locked-mode writers out; writers that take no lock (partitioned mode, transfer recovery) may still move the
 * account between the read and the write, and then the write is refused and the decision is taken again on a fresh
 * read. A refused fence means this holder lost its lock: nothing was written, and the client retries with the same
 * id.
 */
final class FencedWrites {

    /** Enough to get through a burst of unlocked writers on a hot account; beyond it the client retries. */
    static final int MAX_ATTEMPTS = 100;
    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final IMap<String, Account> accounts;
    private final IMap<JournalKey, JournalEntry> journal;

    FencedWrites(HazelcastInstance hazelcast) {
        this.accounts = Maps.accounts(hazelcast);
        this.journal = Maps.journal(hazelcast);
    }

    TxOutcome apply(long fence, String accountId, TxRequest request) {
        JournalKey key = new JournalKey(accountId, request.txId());
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            CompletableFuture<JournalEntry> older = journal.getAsync(key).toCompletableFuture();
            Account account = accounts.get(accountId);
            if (account == null) {
                return TxOutcome.notFound();
            }
            Ledger.Decision decision = Ledger.decide(account, request, ignored -> older.join(), journal::containsKey);
            if (decision.account() == null) {
                return decision.outcome();
            }
            // Under the lock, before the account that still holds them is written: synchronous and idempotent.
            decision.toJournal().forEach(missing -> journal.putIfAbsent(missing.key(), missing));
            FencedWrite.Result result = FencedWrite.Result.valueOf(
                    accounts.executeOnKey(accountId, new FencedWrite(fence, account, decision.account())));
            switch (result) {
                case WRITTEN:
                    return decision.outcome();
                case NOT_FOUND:
                    return TxOutcome.notFound();
                case STALE_FENCE:
                    throw ApiException.unavailable("The lock on account '" + accountId + "' was lost before the "
                            + "write (its session expired) and nothing was written. Retry with the same id.",
                            RETRY_AFTER);
                case MOVED:
                    continue;
                default:
                    throw new IllegalStateException("Unknown result " + result);
            }
        }
        throw ApiException.unavailable("Account '" + accountId + "' is changing too fast for a locked write; nothing "
                + "was written. Retry with the same id.", RETRY_AFTER);
    }
}
