package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import io.micronaut.core.annotation.Nullable;

import java.util.List;
import java.util.Map;

/**
 * How an entry processor writes an account: the one way every writer of the ledger (transactions, opening, trimming,
 * fenced writes, jobs) stores a new account, backs it up as a delta ({@link AccountBackup}) and hands the entries it
 * recorded to the journal writer. Each processor instance has its own, which gathers what the instance wrote on each
 * partition thread until Hazelcast asks for the backup processor (see {@link AccountBackup.Collector}).
 * <b>Threads:</b> on the partition thread of the entry being processed, like the processor that owns it; one instance
 * may be used by several partition threads at once (an {@code executeOnKeys}), so what it wrote is kept per thread.
 */
public final class LedgerWrites {

    private LedgerHost host;
    private final AccountBackup.Collector written = new AccountBackup.Collector();

    /** Works on the member the processor was sent to. */
    public void attach(HazelcastInstance hazelcast) {
        this.host = MemberLedger.of(hazelcast);
    }

    /** Works on {@code host}: a test's, to run a processor as a plain function. */
    public void attach(LedgerHost host) {
        this.host = host;
    }

    /** Starts on {@code entry}; answers its partition. Call it first in every {@code process}. */
    public int visit(Map.Entry<String, Account> entry) {
        int partition = host.partitionOf(entry);
        written.visit(partition, entry.getKey());
        return partition;
    }

    /** Whether a tail may let go of the entry recorded under {@code txId} ({@link LedgerHost#kept}). */
    public boolean kept(int partition, String accountId, String txId) {
        return host.kept(partition, accountId, txId);
    }

    /**
     * The entry recorded on the account under {@code txId} within the retention, beyond its tail, that the account at
     * {@code version} counts, or null ({@link LedgerHost#known}).
     */
    public JournalEntry known(int partition, String accountId, String txId, long version) {
        return host.known(partition, accountId, txId, version);
    }

    /** Whether the partition lost its data; an absent account may then exist elsewhere. */
    public boolean lost(int partition) {
        return host.lost(partition);
    }

    /** The ledger's decision on {@code request}, looking the txId up in the account's tail and journal. */
    public Ledger.Decision decide(int partition, String accountId, Account account, TxRequest request) {
        return Ledger.decide(accountId, account, request, txId -> host.known(partition, accountId, txId,
                account == null ? 0 : account.version()));
    }

    /**
     * Stores {@code after}, which is {@code before} with {@code recorded} appended to its tail; backs up exactly that
     * change and queues the entries for the journal.
     */
    public void record(Map.Entry<String, Account> entry, int partition, Account before, Account after,
                       List<JournalEntry> recorded) {
        write(entry, partition, before, after, recorded, -1, null);
    }

    /** As {@link #record}, for a write of the locked path: {@code after} carries the lock's {@code fence}. */
    public void recordFenced(Map.Entry<String, Account> entry, int partition, Account before, Account after,
                             List<JournalEntry> recorded, long fence) {
        write(entry, partition, before, after, recorded, fence, null);
    }

    /**
     * As {@link #record}, for a job's step: {@code after} carries the job run's key {@code runKey}, also when it
     * records nothing (an account the job skips).
     */
    public void recordForJob(Map.Entry<String, Account> entry, int partition, Account before, Account after,
                             List<JournalEntry> recorded, String runKey) {
        write(entry, partition, before, after, recorded, -1, runKey);
    }

    /** {@code fence} is -1 and {@code job} null when the write sets neither. */
    private void write(Map.Entry<String, Account> entry, int partition, Account before, Account after,
                       List<JournalEntry> recorded, long fence, @Nullable String job) {
        AccountDelta delta = recorded.isEmpty() ? AccountDelta.NONE : AccountDelta.appended(before, after);
        long journaled = journaledThrough(partition, entry.getKey(), before, recorded.size());
        if (journaled >= 0) {
            after = after.trimmedThrough(journaled);
            delta = delta.withTrim(journaled);
        }
        entry.setValue(after);
        host.stored(partition, entry.getKey(), before, after);
        if (fence >= 0) {
            delta = delta.withFence(fence);
        }
        if (job != null) {
            delta = delta.withJob(job);
        }
        written.add(entry.getKey(), delta);
        if (!recorded.isEmpty()) {
            host.recorded(partition, recorded);
        }
    }

    /**
     * The seq through which {@code before}'s oldest tail entries are in the partition's journal (the journal writer
     * wrote them since), or -1: they leave the tail in the same write that appends, so that a busy account's tail
     * stays short without an operation of its own. An idle account's are trimmed by the sweep ({@link TrimTails}).
     * Entries recorded since {@link LedgerHost#holdCutoff()} stay, up to {@link JournalSettings#MAX_HELD}; those past
     * the hold leave {@link JournalSettings#TRIM_BATCH} at a time, and a tail over the bound sheds down to a batch
     * below it.
     */
    private long journaledThrough(int partition, String accountId, Account before, int appended) {
        byte[] tail = before.tail();
        if (tail.length == 0) {
            return -1;
        }
        int size = Tail.size(tail);
        int room = JournalSettings.MAX_HELD - appended;
        // A tail over the bound sheds a batch more than it must, so that the next writes only append.
        int keep = size > room ? Math.max(0, room - JournalSettings.TRIM_BATCH) : room;
        long holdCutoff = host.holdCutoff();
        int leaving = Tail.leavingCount(tail, size, holdCutoff, keep);
        if (leaving == 0 || leaving < JournalSettings.TRIM_BATCH && size <= room) {
            return -1;
        }
        int journaled = 0;
        for (String txId : Tail.leaving(tail, size, holdCutoff, keep)) {
            if (!host.kept(partition, accountId, txId)) {
                break;
            }
            journaled++;
        }
        return journaled == 0 ? -1 : before.version() - size + journaled;
    }

    /**
     * Changes nothing, but makes the operation wait for the account's backup anyway: an answer replayed from the tail
     * then never reveals an entry the backup does not hold yet (an earlier write whose own answer was lost or is
     * still waiting; its backup travels ahead of this one to the same replica). Without it, a retry answered by an
     * owner about to be cut off could acknowledge what the other side of the split will never see.
     */
    void confirm(Map.Entry<String, Account> entry) {
        written.add(entry.getKey(), AccountDelta.NONE);
    }

    /** Stores a whole new account (just opened, or recovered from a disk). */
    void replace(Map.Entry<String, Account> entry, Account account) {
        Account before = entry.getValue();
        entry.setValue(account);
        host.stored(host.partitionOf(entry), entry.getKey(), before, account);
        written.add(entry.getKey(), AccountDelta.replacedBy(account));
    }

    /**
     * {@code existing} joined with {@code merging}, another disk's copy of the same account at a restart, as a
     * split-brain merge joins them but as copies of one history ({@link AccountUnion#restart}); the entries it appends
     * go to the journal writer.
     */
    AccountUnion.Result union(int partition, String accountId, Account existing, Account merging) {
        AccountUnion.Result joined = AccountUnion.restart(accountId, existing, merging, host, partition);
        if (!joined.appended().isEmpty()) {
            host.recorded(partition, joined.appended());
        }
        if (joined.conflict()) {
            host.conflictAtRestart(accountId, joined.account());
        }
        return joined;
    }

    /** Stores {@code account} with its tail trimmed through {@code seq}. */
    void trim(Map.Entry<String, Account> entry, Account trimmed, long seq) {
        entry.setValue(trimmed);
        written.add(entry.getKey(), AccountDelta.trimmedThrough(seq));
    }

    /** The backup processor for what this thread wrote in the current operation, or null for nothing. */
    @SuppressWarnings("unchecked")
    public <R> EntryProcessor<String, Account, R> backup() {
        return (EntryProcessor<String, Account, R>) (EntryProcessor<?, ?, ?>) written.backup();
    }
}
