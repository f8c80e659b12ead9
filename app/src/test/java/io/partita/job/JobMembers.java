package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.partita.account.Account;
import io.partita.account.AccountFeature;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The job feature's parts on members of a {@code TestCluster}, wired as a node wires them: a {@link JobRunner} and a
 * {@link JobService} on each member.
 */
public final class JobMembers implements AutoCloseable {

    public record Parts(JobRunner runner, JobService jobs, SimpleMeterRegistry meters) {
    }

    private final Map<HazelcastInstance, Parts> parts = new ConcurrentHashMap<>();
    private final JobSettings settings;

    public JobMembers(JobSettings settings) {
        this.settings = settings;
    }

    public JobSettings settings() {
        return settings;
    }

    /** Ticks fast, so that tests wait little; a slice pause slows jobs down enough to act on them mid-way. */
    public static JobSettings settings(int sliceSize, Duration slicePause) {
        return new JobSettings(Duration.ofMillis(100), sliceSize, slicePause, Duration.ofHours(1),
                Duration.ofMillis(100));
    }

    public Parts on(HazelcastInstance member) {
        return parts.computeIfAbsent(member, m -> {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            JobRunner runner = new JobRunner(m, settings, new JobMeters(meters));
            JobService jobs = new JobService(m, runner);
            return new Parts(runner, jobs, meters);
        });
    }

    JobService jobs(HazelcastInstance member) {
        return on(member).jobs();
    }

    /** Stops the member's job parts, as its process dying would. */
    public void stop(HazelcastInstance member) {
        Parts stopped = parts.remove(member);
        if (stopped != null) {
            stopped.runner().close();
        }
    }

    @Override
    public void close() {
        parts.values().forEach(part -> part.runner().close());
        parts.clear();
    }

    /** Stores accounts as {@code POST /accounts} would (a test fixture: thousands in a few calls). */
    public static void open(HazelcastInstance member, List<TestAccount> accounts) {
        IMap<String, Account> map = AccountFeature.accounts(member);
        Map<String, Account> batch = new HashMap<>();
        for (TestAccount account : accounts) {
            batch.put(account.id(), account.account());
            if (batch.size() == 1_000) {
                map.putAll(batch);
                batch.clear();
            }
        }
        map.putAll(batch);
    }
}
