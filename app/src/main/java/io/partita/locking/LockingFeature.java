package io.partita.locking;

import com.hazelcast.config.Config;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.node.Feature;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.function.Supplier;

/**
 * The locking feature's part of a member: the class of its block of ids (the fenced write). Its locks live in the CP
 * Subsystem, which the node configures for the whole member.
 */
@Singleton
public final class LockingFeature implements Feature {

    @Override
    public List<Supplier<? extends IdentifiedDataSerializable>> classes() {
        return List.of(FencedWrite::new);
    }

    @Override
    public void configure(Config config, Setup setup) {
    }
}
