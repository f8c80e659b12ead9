package io.partita.lease;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.spi.merge.PutIfAbsentMergePolicy;
import io.partita.node.DiskRecords;
import io.partita.node.Feature;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.function.Supplier;

/**
 * The lease feature's part of a member: the lease groups map, what members keep of it on disk, and the classes of its
 * block of ids.
 */
@Singleton
public final class LeaseFeature implements Feature {

    /** Worker lease groups by name. */
    public static final String LEASE_GROUPS = "lease-groups";

    static IMap<String, LeaseGroup> groups(HazelcastInstance hazelcast) {
        return hazelcast.getMap(LEASE_GROUPS);
    }

    @Override
    public List<Supplier<? extends IdentifiedDataSerializable>> classes() {
        return List.of(LeaseGroup::new, LeaseCall::new, LeaseAnswer::new, FenceCheck::new, RecoverGroup::new);
    }

    /**
     * One entry per group, changed only by its entry processors, with the ledger's backups. The minority side of a
     * split grants nothing (split-brain protection), so after the heal the majority's copy of a group both sides hold
     * is the one that counts (PutIfAbsent keeps the existing entry), and a group only the minority held comes back.
     * Members keep the groups on disk ({@link LeaseDisk}), without their workers.
     */
    @Override
    public void configure(Config config, Setup setup) {
        config.addMapConfig(setup.protectedMap(LEASE_GROUPS, PutIfAbsentMergePolicy.class));
        DiskRecords.register(config, LeaseDisk.KIND);
    }
}
