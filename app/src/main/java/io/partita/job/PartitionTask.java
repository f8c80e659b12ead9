package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.PartitionAware;
import com.hazelcast.query.Predicates;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalPredicates;
import io.partita.account.JournalRecord;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClassId;
import io.partita.node.ClusterClock;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.MemberDisk;
import io.partita.node.PartitionSentinels;
import io.partita.refusal.Refusal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * One job's work on one partition: the shard of the "sharded cron". {@link JobRunner} sends it to the partition's owner
 * ({@code submitToKeyOwner} with a key of that partition; the task is {@link PartitionAware} on the same key), where it
 * runs on a thread of the {@code partita-jobs} executor, never on the partition thread, and applies the job to the
 * partition's accounts in slices of {@link ApplyJob}s (AUDIT reads them instead). Sent again after a failure or a
 * failover, it only replays: accounts done answer "already processed". An instance serves one partition of one job on
 * one thread.
 */
@ClassId(60)
final class PartitionTask implements Callable<Long>, FieldList, HazelcastInstanceAware,
        PartitionAware<String> {
    /*
     * Slices
     *
     * The task lists the partition's account keys with one partition-predicate query (a scan of that partition only, on
     * its owner, which is this member), then sends them in slices of sliceSize keys to the partition thread as one
     * ApplyJob batch per slice (executeOnKeys; all keys of a slice share the partition, so each slice is one short
     * operation). Between slices the partition thread serves everything else, so a transaction on an account of this
     * partition waits for at most one slice; slicePause can throttle further. The entries the slices record go to the
     * journal through the member's journal writer, like every transaction's; after the last slice the task records the
     * partition done in the job.
     *
     * A job that stops
     *
     * Every RECHECK_SLICES slices the task reads the job again and stops when it is no longer this run and RUNNING (it
     * FAILED, or its id now names another run): a failed job stops charging within that many slices of each partition
     * in flight. What those slices did stays done, exactly once, and is not added to the job's tally (a job that is not
     * running takes no more partitions), like the partitions a FAILED job had under way.
     *
     * Failure
     *
     * If this member dies mid-way the partition is not marked done, the coordinator sends the task again and it lands
     * on the partition's new owner, which redoes the partition. Accounts done before the crash answer "already
     * processed" (the job id in the account), so nothing is applied twice. If the partition migrates while the task
     * runs, the calls simply follow it to the new owner.
     *
     * Audit
     *
     * AUDIT reads instead. Per slice, the slice's journal entries (one query, a scan of the partition's journal on its
     * owner) and then the accounts, in that order, so every entry read is already reflected in the balance read after
     * it, and an entry not yet copied to the journal is found in the account's tail. An account that looks wrong is
     * read again on its own before it is reported, so a transaction racing the audit does not show as a mismatch.
     */

    /** Slices between two reads of the job: at 64 accounts a slice, a job read per 1,024 accounts. */
    static final int RECHECK_SLICES = 16;

    private String jobId;
    private String run;
    private int partition;
    private String partitionKey;
    private int sliceSize;
    private long slicePauseMillis;
    private long retentionMillis;
    private transient HazelcastInstance hazelcast;

    PartitionTask() {
    }

    PartitionTask(String jobId, String run, int partition, String partitionKey, int sliceSize, long slicePauseMillis,
                  long retentionMillis) {
        this.jobId = jobId;
        this.run = run;
        this.partition = partition;
        this.partitionKey = partitionKey;
        this.sliceSize = sliceSize;
        this.slicePauseMillis = slicePauseMillis;
        this.retentionMillis = retentionMillis;
    }

    /**
     * @return the accounts processed, or -1 when there was nothing to do or the task stopped (the run ended, or had
     *         this partition)
     */
    @Override
    public Long call() throws InterruptedException {
        IMap<String, Job> jobs = JobFeature.jobs(hazelcast);
        Job job = jobs.get(jobId);
        if (!toDo(job)) {
            return -1L;
        }
        refuseIfLost();
        List<String> keys = new ArrayList<>(AccountFeature.accounts(hazelcast).keySet(
                Predicates.partitionPredicate(partitionKey, Predicates.alwaysTrue())));
        keys.sort(null);
        JobTally tally = JobTally.EMPTY;
        for (int from = 0; from < keys.size(); from += sliceSize) {
            if (from > 0 && slicePauseMillis > 0) {
                Thread.sleep(slicePauseMillis);
            }
            if (from > 0 && (from / sliceSize) % RECHECK_SLICES == 0 && !toDo(jobs.get(jobId))) {
                return -1L;
            }
            List<String> slice = keys.subList(from, Math.min(keys.size(), from + sliceSize));
            tally = tally.plus(job.type() == JobType.AUDIT ? audit(slice) : apply(job, slice));
        }
        refuseIfLost();
        Job after = BackedUpCalls.executeOnKey(hazelcast, jobs.getName(), jobId, new RecordPartition(run, partition,
                tally, ClusterClock.now(hazelcast), retentionMillis));
        if (after != null && !after.running()) {
            JobService.releaseGuard(hazelcast, after);
        }
        return tally.accounts();
    }

    /**
     * A partition whose data is gone from this side (its copies are on the other side of a network split, or left
     * with their members) has no accounts to list here: done "with none", its accounts would come back uncharged. The
     * task fails as partition-lost instead, a transient refusal, and the coordinator sends it again at its next tick,
     * until the data is back. Asked before the partition is listed and again before it is recorded done.
     */
    private void refuseIfLost() {
        if (PartitionSentinels.of(hazelcast).lostAtOwner(partition)) {
            throw Refusal.partitionLost("Partition", String.valueOf(partition), partition);
        }
    }

    private boolean toDo(Job job) {
        return job != null && job.running() && job.run().equals(run) && !job.isDone(partition);
    }

    private JobTally apply(Job job, List<String> slice) {
        // Backed up before the partition is recorded done: a charge must not be lost with its owner afterwards.
        Map<String, JobStep> steps = BackedUpCalls.executeOnKeys(hazelcast, AccountFeature.ACCOUNTS,
                new LinkedHashSet<>(slice),
                new ApplyJob(jobId, run, job.spec(), ClusterClock.now(hazelcast)));
        JobTally tally = JobTally.EMPTY;
        for (JobStep step : steps.values()) {
            tally = tally.plus(step.tally());
        }
        return tally;
    }

    private JobTally audit(List<String> slice) {
        Map<String, List<JournalEntry>> byAccount = journalOf(partitionKey, slice);
        Map<String, Account> accounts = AccountFeature.accounts(hazelcast).getAll(new LinkedHashSet<>(slice));
        long checked = 0;
        long conflicts = 0;
        List<String> mismatched = new ArrayList<>();
        for (String id : slice) {
            Account account = accounts.get(id);
            if (account == null) {
                continue;
            }
            checked++;
            if (account.conflicts() > 0) {
                conflicts++;
            }
            if (!JobRules.balanced(id, account, byAccount.getOrDefault(id, List.of())) && !balancedOnSecondLook(id)) {
                mismatched.add(id);
            }
        }
        return JobTally.audited(checked, mismatched, conflicts);
    }

    /**
     * The journal entries of {@code accountIds}, all in the partition of {@code partitionKey}, by account: the journal
     * map's, and with the journal on disk this member's disk's (the task runs at the partition's owner), which hold
     * the whole retention while the map holds its last seconds. An entry in both is there twice; the audit joins by
     * txId.
     */
    private Map<String, List<JournalEntry>> journalOf(String partitionKey, Collection<String> accountIds) {
        Map<String, List<JournalEntry>> byAccount = new HashMap<>();
        for (Map.Entry<JournalKey, JournalRecord> entry : AccountFeature.journal(hazelcast).entrySet(
                Predicates.partitionPredicate(partitionKey, JournalPredicates.ofAccounts(accountIds)))) {
            byAccount.computeIfAbsent(entry.getKey().accountId(), id -> new ArrayList<>())
                    .add(entry.getValue().entry(entry.getKey()));
        }
        MemberDisk disk = MemberDisk.of(hazelcast);
        if (disk.onDisk()) {
            disk.use(store -> {
                for (String id : accountIds) {
                    store.history(partition, id, Long.MAX_VALUE, Integer.MAX_VALUE).entries().forEach(stored ->
                            byAccount.computeIfAbsent(id, key -> new ArrayList<>()).add(JournalEntry.of(stored)));
                }
            });
        }
        return byAccount;
    }

    private boolean balancedOnSecondLook(String accountId) {
        List<JournalEntry> entries = journalOf(accountId, List.of(accountId)).getOrDefault(accountId, List.of());
        Account account = AccountFeature.accounts(hazelcast).get(accountId);
        return account == null || JobRules.balanced(accountId, account, entries);
    }

    @Override
    public String getPartitionKey() {
        return partitionKey;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.hazelcast = hazelcastInstance;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        jobId = fields.string(jobId);
        run = fields.string(run);
        partition = fields.int32(partition);
        partitionKey = fields.string(partitionKey);
        sliceSize = fields.int32(sliceSize);
        slicePauseMillis = fields.int64(slicePauseMillis);
        retentionMillis = fields.int64(retentionMillis);
    }
}
