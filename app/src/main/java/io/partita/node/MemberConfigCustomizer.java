package io.partita.node;

import com.hazelcast.config.Config;

/**
 * A bean that adds to a node's Hazelcast {@link Config} before its member starts, after {@link HazelcastConfigs} built
 * it: for code that ships beside the node rather than in it, such as the benchmarks' reference entry processors, which
 * bring a serialization factory of their own.
 */
public interface MemberConfigCustomizer {

    void customize(Config config);
}
