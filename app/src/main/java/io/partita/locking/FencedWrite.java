package io.partita.locking;

import io.partita.account.Account;
import io.partita.account.JournalEntry;
import io.partita.account.LedgerProcessor;
import io.partita.account.TxOutcome;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The write of the locked path: records the entry a lock holder decided, only if the holder's fence is not lower
 * than the highest fence the account has seen, and only if the account is still the one the holder read.
 * Runs on the partition thread of the account's owner, so the checks and the write are one atomic
 * step; a run again after a retry or a migration finds its own entry and is refused as a duplicate, which the holder
 * answers from the recorded entry. Its backup ({@link io.partita.account.AccountBackup}) applies the appended entry
 * and the fence on each replica.
 *
 * <p>The fence check is what makes a lock safe to lose: a holder that paused past its CP session lost its lock, and a
 * newer holder (with a higher fence, FencedLock's fences only grow) may have written since; the paused holder's late
 * write is refused here instead of overwriting the newer one. The second check (the account's version is the one read)
 * covers writers that take no lock at all (the partitioned path, recovery of a transfer): if the account moved between
 * the holder's read and this write, the holder reads and decides again. The backup receives the appended entry and the
 * new fence ({@link io.partita.account.AccountBackup}) and never re-checks.
 *
 * <p>The third check keeps a txId from being applied twice whatever the holder read: the write is refused when the
 * account's tail or its journal already holds the txId (the journal lives in the account's partition, so this is a
 * local lookup on the same thread). The holder then reads again and answers the recorded entry.
 */
@ClassId(40)
public final class FencedWrite extends LedgerProcessor<String, FencedWrite> implements FieldList {

    /** What the write came to; returned by name, a plain string on the wire. */
    enum Result {
        WRITTEN,
        /** A holder with a higher fence has written the account: this holder lost its lock. Nothing changed. */
        STALE_FENCE,
        /** The account changed since the holder read it. Nothing changed. */
        MOVED,
        /** The txId is recorded already (on the account or in the journal): read again and replay it. */
        DUPLICATE,
        NOT_FOUND
    }

    private long fence;
    private long expectedVersion;
    private JournalEntry entry;

    public FencedWrite() {
    }

    /**
     * @param fence           the writer's lock fence, positive
     * @param expectedVersion the account's version as the writer read it under its lock
     * @param entry           the entry the writer decided on (the account's next seq); it is recorded with
     *                        {@code fence}
     */
    public FencedWrite(long fence, long expectedVersion, JournalEntry entry) {
        if (fence <= 0) {
            throw new IllegalArgumentException("A fenced write needs the fence of a held lock, not " + fence);
        }
        this.fence = fence;
        this.expectedVersion = expectedVersion;
        this.entry = entry;
    }

    @Override
    public String process(Map.Entry<String, Account> mapEntry) {
        int partition = ledger.visit(mapEntry);
        Account current = mapEntry.getValue();
        if (current == null) {
            return Result.NOT_FOUND.name();
        }
        if (fence < current.fence()) {
            return Result.STALE_FENCE.name();
        }
        if (current.version() != expectedVersion) {
            return Result.MOVED.name();
        }
        if (current.recorded(mapEntry.getKey(), entry.txId()) != null
                || ledger.known(partition, mapEntry.getKey(), entry.txId(), current.version()) != null) {
            return Result.DUPLICATE.name();
        }
        ledger.recordFenced(mapEntry, partition, current, current.record(entry).withFence(fence), List.of(entry),
                fence);
        return Result.WRITTEN.name();
    }

    @Override
    public void fields(Fields fields) throws IOException {
        fence = fields.int64(fence);
        expectedVersion = fields.int64(expectedVersion);
        entry = fields.value(entry, TxOutcome::writeEntry, TxOutcome::readEntry);
    }
}
