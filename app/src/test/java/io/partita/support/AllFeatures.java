package io.partita.support;

import io.partita.account.AccountFeature;
import io.partita.job.JobFeature;
import io.partita.job.JobMembers;
import io.partita.lease.LeaseFeature;
import io.partita.locking.LockingFeature;
import io.partita.node.Feature;
import io.partita.observe.ObserveFeature;
import io.partita.schedule.ScheduleFeature;
import io.partita.transfer.TransferFeature;

import java.time.Duration;
import java.util.List;

/** Every feature of a node, for tests that start bare members: what a node's context collects as beans. */
public final class AllFeatures {

    public static final List<Feature> LIST = List.of(new AccountFeature(), new TransferFeature(),
            new LockingFeature(), new JobFeature(JobMembers.settings(64, Duration.ZERO)), new ScheduleFeature(),
            new LeaseFeature(), new ObserveFeature());

    private AllFeatures() {
    }
}
