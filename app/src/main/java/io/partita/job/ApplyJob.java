package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.Account;
import io.partita.account.ApplyTransaction;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.Ledger;
import io.partita.account.TxRequest;
import io.partita.cluster.Maps;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A FEE or INTEREST job on one account: checks whether the job already processed it and, if not, applies the job's
 * movement and remembers the job's id, in one step.
 *
 * <p>Runs on the partition thread of the account's owner, sent there in small batches by {@link PartitionTask}; the
 * check and the write cannot interleave with a transaction or with a second run of the same job (a partition redone
 * after a failover). Exactly once rests on two records in the account's own partition: the job's run key
 * ({@code <jobId>/<run>}) in {@link Account#jobs()} (every outcome, including "no money moved"), and the movement's
 * journal entry under txId {@code job/<jobId>/<run>}, which {@link Ledger#decide} finds like any retried transaction
 * once the key has left that short list. Both name the run, not only the id: a job started under the id of one that
 * finished and expired is a new job here, and moves money again. The movement itself is decided by the ledger's
 * rules: a fee the overdraft limit does not allow is REJECTED. On the backup it does not run again: the computed
 * account travels as a {@link ReplaceValue}.
 *
 * <p>An entry found under the run's txId counts as this job's own only when it is one: type FEE or INTEREST with
 * {@code ref} = the job's id. Clients cannot write such a txId (it holds '/'), so another entry there means the ledger
 * was written around the API; the account is then counted as skipped (no money moved), never as charged or paid.
 */
final class ApplyJob implements EntryProcessor<String, Account, JobStep>, IdentifiedDataSerializable,
        HazelcastInstanceAware {

    private String jobId;
    private String run;
    private JobSpec spec;
    private long at;
    private transient HazelcastInstance hazelcast;
    /** What this processor wrote, by account: one instance processes every key of an {@code executeOnKeys} batch. */
    private transient Map<String, Account> written;
    private transient List<JournalEntry> toJournal = List.of();

    ApplyJob() {
    }

    /** @param at epoch milliseconds stamped on the journal entry, read by the caller (never a clock in here) */
    ApplyJob(String jobId, String run, JobSpec spec, long at) {
        this.jobId = jobId;
        this.run = run;
        this.spec = spec;
        this.at = at;
    }

    @Override
    public JobStep process(Map.Entry<String, Account> entry) {
        IMap<JournalKey, JournalEntry> journal = hazelcast == null ? null : Maps.journalOnPartitionThread(hazelcast);
        toJournal = List.of();
        JobStep step = apply(entry, key -> journal == null ? null : journal.get(key),
                key -> journal != null && journal.containsKey(key));
        ApplyTransaction.writeMissing(journal, toJournal);
        return step;
    }

    /**
     * The decision, given a way to look up older journal entries of the account and to tell whether the journal holds
     * one (its partition's journal).
     */
    JobStep apply(Map.Entry<String, Account> entry, Function<JournalKey, JournalEntry> older,
                  Predicate<JournalKey> journaled) {
        Account account = entry.getValue();
        if (account == null) {
            return JobStep.missing();
        }
        String runKey = JobRules.runKey(jobId, run);
        if (account.hasSeenJob(runKey)) {
            JournalEntry previous = previous(account, older);
            return previous != null && JobRules.isMovementOf(previous, spec, jobId)
                    ? JobStep.replayed(previous) : JobStep.skipped();
        }
        TxRequest request = JobRules.request(spec, jobId, run, account, at);
        if (request == null) {
            store(entry, account.withJob(runKey));
            return JobStep.skipped();
        }
        Ledger.Decision decision = Ledger.decide(account, request, older, journaled);
        if (decision.account() == null) {
            JournalEntry previous = decision.outcome().entry();
            // The run key has left the account's short list, but the journal still knows the movement (a replay, or a
            // "conflict" when interest on a since-changed balance would differ): it stays as first recorded. Anything
            // else under this txId is not the job's (see above): nothing moves, and nothing is stored, so a redo
            // decides the same.
            return JobRules.isMovementOf(previous, spec, jobId) ? JobStep.replayed(previous) : JobStep.skipped();
        }
        store(entry, decision.account().withJob(runKey));
        toJournal = decision.toJournal();
        return JobStep.recorded(decision.outcome().entry());
    }

    private JournalEntry previous(Account account, Function<JournalKey, JournalEntry> older) {
        String txId = JobRules.txId(jobId, run);
        for (JournalEntry recent : account.recent()) {
            if (recent.txId().equals(txId)) {
                return recent;
            }
        }
        return older.apply(new JournalKey(account.id(), txId));
    }

    private void store(Map.Entry<String, Account> entry, Account account) {
        entry.setValue(account);
        if (written == null) {
            written = new LinkedHashMap<>();
        }
        written.put(entry.getKey(), account);
    }

    @Override
    public EntryProcessor<String, Account, JobStep> getBackupProcessor() {
        return written == null ? null : new ReplaceValue<>(written, 0);
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.hazelcast = hazelcastInstance;
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.APPLY_JOB;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeString(jobId);
        out.writeString(run);
        JobSerialization.writeSpec(out, spec);
        out.writeLong(at);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        jobId = in.readString();
        run = in.readString();
        spec = JobSerialization.readSpec(in);
        at = in.readLong();
    }
}
