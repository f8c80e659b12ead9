package io.partita.observe;

import com.hazelcast.config.Config;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.node.Feature;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.function.Supplier;

/**
 * The observation views' part of a member: the small executor that gathers every member's view of its own
 * partitions, and the classes of its ids (the snapshot task and its answer).
 */
@Singleton
public final class ObserveFeature implements Feature {

    /** The executor that gathers every member's view of its own partitions ({@code GET /cluster/partitions}). */
    static final String VIEWS_EXECUTOR = "partita.views";

    @Override
    public List<Supplier<? extends IdentifiedDataSerializable>> classes() {
        return List.of(MemberSnapshotTask::new, MemberSnapshot::new);
    }

    /** Views are cheap reads answered on a small pool of their own, apart from the default executor. */
    @Override
    public void configure(Config config, Setup setup) {
        config.getExecutorConfig(VIEWS_EXECUTOR).setPoolSize(2).setStatisticsEnabled(false);
    }
}
