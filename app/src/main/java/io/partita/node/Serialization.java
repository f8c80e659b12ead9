package io.partita.node;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The one factory of IdentifiedDataSerializable classes, filled from every {@link Feature}. Values (accounts, journal
 * entries) use Compact serialization so that SQL can read their fields; entry processors, their results and tasks
 * are IdentifiedDataSerializable under {@link #FACTORY_ID}, each class with its {@link ClassId}, and each feature
 * with a block of class ids of its own:
 * account 1-19, transfer 20-39, locking 40-59, job 60-79 (schedule 67, 69 and 72 of them), observe 80-81, node
 * 82-99, lease 100-119.
 * Nothing that crosses the wire may fall back to Java serialization: {@code SerializationTest} round-trips every
 * registered class with Java serialization disabled.
 */
public final class Serialization {

    public static final int FACTORY_ID = 7_271;

    /** {@link BackedUpCalls.Entries}, the node's own (a Hazelcast operation, which names its ids itself). */
    static final int BACKED_UP_ENTRIES = 82;
    /** {@link BackedUpCalls.EntriesBackup}, its backup. */
    static final int BACKED_UP_ENTRIES_BACKUP = 92;

    private static final ClassValue<Integer> CLASS_IDS = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            ClassId id = type.getAnnotation(ClassId.class);
            if (id == null) {
                throw new IllegalStateException(type.getName() + " is registered without a @ClassId");
            }
            return id.value();
        }
    };

    private Serialization() {
    }

    /** Registers the factory of every feature's classes; refuses two classes under one id. */
    static void register(SerializationConfig config, List<? extends Feature> features) {
        Map<Integer, Supplier<? extends IdentifiedDataSerializable>> classes = new HashMap<>();
        claim(classes, List.of(BackedUpCalls.Entries::new, BackedUpCalls.EntriesBackup::new, ReplaceValue::new,
                MembershipNotice::new, ClusterClock.Reading::new, RemoveValue::new, DiskShares.Share::new,
                DiskShares.Fill::new, DiskShares.Offer::new, DiskShares.Read::new, DiskShares.Page::new,
                DiskShares.Rewrite::new, MemberDisk.Ask::new), "the node");
        for (Feature feature : features) {
            claim(classes, feature.classes(), feature.getClass().getSimpleName());
        }
        Map<Integer, Supplier<? extends IdentifiedDataSerializable>> registered = Map.copyOf(classes);
        config.addDataSerializableFactory(FACTORY_ID, classId -> {
            Supplier<? extends IdentifiedDataSerializable> constructor = registered.get(classId);
            if (constructor == null) {
                throw new IllegalArgumentException("Unknown serialization class id " + classId);
            }
            return constructor.get();
        });
    }

    /** The class id of an {@link Identified} class: its {@link ClassId}. */
    static int classId(Class<?> type) {
        return CLASS_IDS.get(type);
    }

    private static void claim(Map<Integer, Supplier<? extends IdentifiedDataSerializable>> classes,
                              List<Supplier<? extends IdentifiedDataSerializable>> constructors, String owner) {
        for (Supplier<? extends IdentifiedDataSerializable> constructor : constructors) {
            int id = constructor.get().getClassId();
            if (classes.putIfAbsent(id, constructor) != null) {
                throw new IllegalStateException(
                        "Serialization class id " + id + " is claimed twice (by " + owner + " and another)");
            }
        }
    }
}
