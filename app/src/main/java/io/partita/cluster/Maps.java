package io.partita.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IndeterminateOperationStateException;
import com.hazelcast.spi.exception.RetryableHazelcastException;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.JournalRecord;
import io.partita.account.JournalKey;
import io.partita.job.Job;
import io.partita.job.Schedule;
import io.partita.transfer.Transfer;
import io.partita.transfer.TransferKey;

/** The names of the grid's data structures, configured in {@link HazelcastConfigs} and looked up only through here. */
public final class Maps {

    public static final String ACCOUNTS = "accounts";
    public static final String JOURNAL = "journal";
    public static final String TRANSFERS = "transfers";
    /** One entry per partition, lost exactly when the partition's data is lost ({@link PartitionSentinels}). */
    public static final String SENTINELS = "partita-sentinels";
    /** The executor that runs batch slices on the members owning their accounts. */
    public static final String BATCH_EXECUTOR = "partita-batch";
    /** Jobs by id, with their per-partition progress; a finished job expires after the retention. */
    public static final String JOBS = "jobs";
    /** One entry per job type while a job of that type runs without {@code concurrent}: its id. */
    public static final String JOB_GUARDS = "job-guards";
    public static final String SCHEDULES = "schedules";
    /** The executor the per-partition job tasks run on, on each partition's owner. */
    public static final String JOB_EXECUTOR = "partita-jobs";

    /** Worker lease groups by name ({@code io.partita.lease}). */
    public static final String LEASE_GROUPS = "lease-groups";

    private Maps() {
    }

    /**
     * Creates this member's proxies of every map, once when a member starts, before any bean or request uses them.
     *
     * <p>Creating the proxy of a map with an index (transfers, jobs) adds the index on every partition;
     * while other members are joining, or on a busy machine, a backup of that may not acknowledge in time and the
     * member reports an indeterminate state. Adding an index again is harmless and a failed proxy is forgotten, so
     * the creation is simply retried. With split-brain protection on (partita.split-brain-protection),
     * the index cannot be added until enough members have joined: the member waits for them, as long as it takes
     * (its readiness stays DOWN meanwhile).
     */
    public static void createProxies(HazelcastInstance hazelcast) {
        for (int attempt = 1; ; attempt++) {
            try {
                accounts(hazelcast);
                journal(hazelcast);
                transfers(hazelcast);
                jobs(hazelcast);
                jobGuards(hazelcast);
                schedules(hazelcast);
                hazelcast.getMap(LEASE_GROUPS);
                hazelcast.getMap(SENTINELS);
                return;
            } catch (SplitBrainProtectionException e) {
                attempt = 0;
                try {
                    Thread.sleep(500);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            } catch (IndeterminateOperationStateException | RetryableHazelcastException e) {
                if (attempt >= 50) {
                    throw e;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    public static IMap<String, Account> accounts(HazelcastInstance hazelcast) {
        return hazelcast.getMap(ACCOUNTS);
    }

    public static IMap<JournalKey, JournalRecord> journal(HazelcastInstance hazelcast) {
        return hazelcast.getMap(JOURNAL);
    }

    public static IMap<String, Job> jobs(HazelcastInstance hazelcast) {
        return hazelcast.getMap(JOBS);
    }

    public static IMap<String, String> jobGuards(HazelcastInstance hazelcast) {
        return hazelcast.getMap(JOB_GUARDS);
    }

    public static IMap<String, Schedule> schedules(HazelcastInstance hazelcast) {
        return hazelcast.getMap(SCHEDULES);
    }

    public static IMap<TransferKey, Transfer> transfers(HazelcastInstance hazelcast) {
        return hazelcast.getMap(TRANSFERS);
    }
}
