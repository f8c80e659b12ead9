package io.partita.bench;

import com.hazelcast.config.Config;
import io.partita.node.MemberConfigCustomizer;
import jakarta.inject.Singleton;

/** Registers the benchmarks' own entry processors on every node a benchmark starts, under a factory of their own. */
@Singleton
final class BenchSerialization implements MemberConfigCustomizer {

    static final int FACTORY_ID = 7_273;

    @Override
    public void customize(Config config) {
        config.getSerializationConfig().addDataSerializableFactory(FACTORY_ID,
                typeId -> typeId == ReadAccount.CLASS_ID ? new ReadAccount() : null);
    }
}
