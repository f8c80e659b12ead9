package io.partita.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.IndexConfig;
import com.hazelcast.config.IndexType;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.spi.properties.ClusterProperty;

/**
 * The one place that knows Hazelcast's {@link Config}: it is built in code from {@link PartitaProperties}, never from
 * XML, so that the node and the multi-member tests start members the same way.
 */
public final class HazelcastConfigs {

    /** Fixed for the life of a cluster: a prime well above any node count, so a join moves only a share of them. */
    public static final int PARTITION_COUNT = 271;
    /** The member attribute that carries the node's HTTP URL, read by {@code GET /cluster}. */
    public static final String HTTP_URL_ATTRIBUTE = "partita.http-url";
    /** Binds the member to no particular interface and lets Hazelcast choose one. */
    public static final String ANY_INTERFACE = "any";
    /** The executor that gathers every member's view of its own partitions ({@code GET /cluster/partitions}). */
    public static final String VIEWS_EXECUTOR = "partita.views";

    private HazelcastConfigs() {
    }

    public static Config memberConfig(PartitaProperties properties, String httpUrl) {
        Config config = new Config();
        config.setClusterName(properties.clusterName());
        config.setProperty(ClusterProperty.PARTITION_COUNT.getName(), String.valueOf(PARTITION_COUNT));
        config.setProperty(ClusterProperty.LOGGING_TYPE.getName(), "slf4j");
        config.setProperty(ClusterProperty.PHONE_HOME_ENABLED.getName(), "false");
        // A backup that does not acknowledge turns into an IndeterminateOperationStateException, which the API
        // answers with a retryable 503, instead of a success that one crash could undo.
        config.setProperty(ClusterProperty.FAIL_ON_INDETERMINATE_OPERATION_STATE.getName(), "true");
        // Ctrl-C or SIGTERM hands this member's partitions to the others before the process exits.
        config.setProperty(ClusterProperty.SHUTDOWNHOOK_POLICY.getName(), "GRACEFUL");
        long heartbeatTimeout = Math.max(5, properties.heartbeatTimeout().toSeconds());
        config.setProperty(ClusterProperty.MAX_NO_HEARTBEAT_SECONDS.getName(), String.valueOf(heartbeatTimeout));
        config.setProperty(ClusterProperty.HEARTBEAT_INTERVAL_SECONDS.getName(),
                String.valueOf(Math.max(1, heartbeatTimeout / 5)));
        // SQL runs on the Jet engine, so Jet is on; uploading code or files to it is not, so nothing a client sends
        // can become a class or a resource on a member (POST /sql also refuses anything but a SELECT).
        config.getJetConfig().setEnabled(true).setResourceUploadEnabled(false);
        // Views are cheap reads answered on a small pool of their own, apart from the default executor.
        config.getExecutorConfig(VIEWS_EXECUTOR).setPoolSize(2).setStatisticsEnabled(false);
        config.getMemberAttributeConfig().setAttribute(HTTP_URL_ATTRIBUTE, httpUrl);

        network(config, properties);
        maps(config, properties);
        cpSubsystem(config, properties.cp());
        Serialization.register(config.getSerializationConfig());
        return config;
    }

    private static void network(Config config, PartitaProperties properties) {
        NetworkConfig network = config.getNetworkConfig();
        PartitaProperties.Network settings = properties.network();
        network.setPort(settings.port()).setPortAutoIncrement(true).setPortCount(100);
        if (!ANY_INTERFACE.equalsIgnoreCase(settings.host())) {
            network.getInterfaces().setEnabled(true).addInterface(settings.host());
            // Listen only there too: a node told to stay on loopback must not accept members from elsewhere.
            config.setProperty(ClusterProperty.SOCKET_BIND_ANY.getName(), "false");
        }
        JoinConfig join = network.getJoin();
        join.getAutoDetectionConfig().setEnabled(false);
        join.getMulticastConfig().setEnabled(false);
        switch (properties.discovery()) {
            case MULTICAST -> join.getMulticastConfig()
                    .setEnabled(true)
                    .setMulticastGroup(settings.multicastGroup())
                    .setMulticastPort(settings.multicastPort())
                    .setLoopbackModeEnabled(true);
            case TCP -> join.getTcpIpConfig().setEnabled(true).setMembers(properties.members());
            case KUBERNETES -> {
                String serviceDns = properties.kubernetes().serviceDns();
                if (serviceDns == null || serviceDns.isBlank()) {
                    throw new IllegalArgumentException(
                            "partita.kubernetes.service-dns (PARTITA_KUBERNETES_SERVICE_DNS) is required "
                                    + "when partita.discovery is kubernetes");
                }
                join.getKubernetesConfig().setEnabled(true).setProperty("service-dns", serviceDns);
            }
            default -> throw new IllegalStateException("Unknown discovery " + properties.discovery());
        }
    }

    private static void maps(Config config, PartitaProperties properties) {
        config.addMapConfig(new MapConfig(Maps.ACCOUNTS)
                .setBackupCount(1)
                .setAsyncBackupCount(0));
        config.addMapConfig(new MapConfig(Maps.JOURNAL)
                .setBackupCount(1)
                .setAsyncBackupCount(0)
                .setTimeToLiveSeconds(Math.toIntExact(properties.journal().retention().toSeconds()))
                .addIndexConfig(new IndexConfig(IndexType.HASH, "accountId")));
    }

    private static void cpSubsystem(Config config, PartitaProperties.Cp cp) {
        if (cp.members() == 0) {
            return;
        }
        long ttl = Math.max(5, cp.sessionTtl().toSeconds());
        config.getCPSubsystemConfig()
                .setCPMemberCount(cp.members())
                .setSessionTimeToLiveSeconds((int) ttl)
                .setSessionHeartbeatIntervalSeconds((int) Math.max(1, ttl / 5))
                .setMissingCPMemberAutoRemovalSeconds((int) Math.max(ttl, 30));
    }
}
