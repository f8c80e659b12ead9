package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.ClassId;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Removes from accounts' tails the entries the journal now holds: for each account, the tail loses its oldest entries,
 * up to a bound, for as long as the partition's journal holds them, checked here entry by entry. So an older entry the
 * journal does not hold (queued on a member that crashed, or dropped from a full queue) stops the trim and stays in
 * the tail. The journal writer's sweep sends it over every account with a stale tail (no bound: through its version),
 * and the answer for each account is the account if entries the journal lacks are left in its tail, which the sweep
 * then writes: an entry is never in neither place. A busy account is trimmed by its own next write instead
 * ({@code LedgerWrites}); this is for the idle ones.
 * Runs on the partition threads of the accounts' owner, one operation per partition; the backup trims the
 * same way ({@link AccountBackup}), after the journal's own backup of those entries, which the same partition sent to
 * the same replica before. Trimming is idempotent, so a run again after a retry or a migration is harmless.
 *
 * <p>Entries recorded since {@code holdCutoff} stay even once journaled, up to {@link JournalSettings#MAX_HELD} per
 * tail: a member cut off from the others by a network split takes a heartbeat timeout to notice, and until the two
 * sides merge, what it recorded must still be in its accounts (the merge joins tails, {@link AccountUnion}); the
 * cutoff stops moving while members are missing ({@link JournalWriter#holdCutoff}). What leaves past the
 * bound is put back from the journal before a merge ({@link TailRestore}).
 */
@ClassId(6)
public final class TrimTails extends LedgerProcessor<Object, TrimTails> {

    /** The newest seq to trim through per account, or null for every account's version. */
    private Map<String, Long> through;
    private long holdCutoff;
    /** The account is answered when its oldest remaining entry was recorded before this: the journal may lack it. */
    private long staleBefore;

    public TrimTails() {
    }

    TrimTails(Map<String, Long> through, long holdCutoff, long staleBefore) {
        this.through = through;
        this.holdCutoff = holdCutoff;
        this.staleBefore = staleBefore;
    }

    @Override
    public Object process(Map.Entry<String, Account> entry) {
        int partition = ledger.visit(entry);
        Account account = entry.getValue();
        Long bound = through == null ? (account == null ? null : account.version()) : through.get(entry.getKey());
        if (account == null || bound == null) {
            return null;
        }
        List<JournalEntry> tail = account.tailEntries(entry.getKey());
        long journaled = -1;
        for (int i = 0; i < tail.size(); i++) {
            JournalEntry held = tail.get(i);
            boolean holding = held.at() >= holdCutoff && tail.size() - i <= JournalSettings.MAX_HELD;
            if (held.seq() > bound || holding
                    || !ledger.kept(partition, held.accountId(), held.txId())) {
                break;
            }
            journaled = held.seq();
        }
        if (journaled >= 0) {
            account = account.trimmedThrough(journaled);
            ledger.trim(entry, account, journaled);
        }
        if (Tail.oldestAt(account.tail()) >= staleBefore) {
            return null;
        }
        // Stale and not journaled (a dead member's queue): what the sweep writes. Held entries the journal has are not.
        for (JournalEntry left : account.tailEntries(entry.getKey())) {
            if (left.at() < staleBefore && !ledger.kept(partition, left.accountId(), left.txId())) {
                return account;
            }
        }
        return null;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(holdCutoff);
        out.writeLong(staleBefore);
        out.writeInt(through == null ? -1 : through.size());
        if (through == null) {
            return;
        }
        for (Map.Entry<String, Long> account : through.entrySet()) {
            out.writeString(account.getKey());
            out.writeLong(account.getValue());
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        holdCutoff = in.readLong();
        staleBefore = in.readLong();
        int size = in.readInt();
        if (size < 0) {
            through = null;
            return;
        }
        through = new HashMap<>(size * 2);
        for (int i = 0; i < size; i++) {
            through.put(in.readString(), in.readLong());
        }
    }
}
