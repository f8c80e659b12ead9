package io.partita.support;

import io.partita.cluster.PartitaProperties;

import java.time.Duration;
import java.util.List;

/** {@link PartitaProperties} for members that tests start outside a Micronaut context. */
public final class TestProperties {

    private TestProperties() {
    }

    public static PartitaProperties tcp(String clusterName, int port, List<String> members, int cpMembers) {
        return new PartitaProperties(clusterName, PartitaProperties.Discovery.TCP, members,
                new PartitaProperties.Kubernetes(null),
                new PartitaProperties.Network("127.0.0.1", port, "224.2.2.3", 54327),
                1, Duration.ofSeconds(15), null,
                new PartitaProperties.Cp(cpMembers, Duration.ofSeconds(10), Duration.ofSeconds(5),
                        Duration.ofSeconds(10)),
                new PartitaProperties.Processing(PartitaProperties.ProcessingMode.PARTITIONED),
                new PartitaProperties.Journal(Duration.ofHours(24)),
                new PartitaProperties.Transfers(Duration.ofSeconds(2)));
    }
}
