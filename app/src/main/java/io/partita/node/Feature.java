package io.partita.node;

import com.hazelcast.config.Config;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MergePolicyConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

import java.util.List;
import java.util.function.Supplier;

/**
 * What one feature brings to a member: the wire forms of its classes, its maps and executors, and what runs beside
 * the member from its start. The node collects every {@code Feature} bean and knows none of them by name; a test or
 * a benchmark that starts bare members passes the features it wants.
 * Called on the thread that builds and starts a member, once per member, before any request.
 */
public interface Feature {

    /** How many entries of a map a split-brain merge sends at once. */
    int MERGE_BATCH = 100;

    /**
     * The constructors of this feature's IdentifiedDataSerializable classes under {@link Serialization#FACTORY_ID},
     * each registered under the class id it answers (its {@link ClassId}): each feature owns a block of ids
     * ({@link Serialization} lists the blocks), and a member refuses to start when two classes claim the same id.
     */
    List<Supplier<? extends IdentifiedDataSerializable>> classes();

    /** Adds this feature's maps, executors and serializers (Compact for values SQL reads) to a member's config. */
    void configure(Config config, Setup setup);

    /** Starts what runs beside a member from its start (after its maps' proxies exist); nothing by default. */
    default void start(HazelcastInstance member) {
    }

    /**
     * What every feature's maps share: the backups of the ledger (partita.backup-count, synchronous) and, when
     * split-brain protection is on, its name.
     */
    record Setup(PartitaProperties properties, String protection) {

        /** A map with the ledger's backups, under split-brain protection, merged by {@code mergePolicy}. */
        public MapConfig protectedMap(String name, Class<?> mergePolicy) {
            return map(name, mergePolicy).setSplitBrainProtectionName(protection);
        }

        /** A map with the ledger's backups, merged by {@code mergePolicy}, without split-brain protection. */
        public MapConfig map(String name, Class<?> mergePolicy) {
            MapConfig map = new MapConfig(name).setBackupCount(properties.backupCount()).setAsyncBackupCount(0);
            return mergePolicy == null ? map
                    : map.setMergePolicyConfig(new MergePolicyConfig(mergePolicy.getName(), MERGE_BATCH));
        }
    }
}
