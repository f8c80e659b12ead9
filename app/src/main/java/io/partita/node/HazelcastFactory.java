package io.partita.node;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Owns the node's embedded Hazelcast member. It starts with the application context (so a node joins the cluster
 * before its first request) and shuts down gracefully with it: {@code shutdown()} migrates this member's partitions
 * to the others and waits for their backups before the process exits. Every {@link Feature} bean adds its part; the
 * node names none of them.
 */
@Factory
class HazelcastFactory {

    @Context
    @Bean(preDestroy = "shutdown")
    HazelcastInstance hazelcastInstance(BeanContext context, PartitaProperties properties,
                                        @Value("${micronaut.server.port:8080}") int httpPort,
                                        List<Feature> features, List<MemberConfigCustomizer> customizers) {
        if (ContextStops.stopping(context)) {
            throw new HazelcastInstanceNotActiveException("This node is stopping; its member does not start again.");
        }
        Config config = HazelcastConfigs.memberConfig(properties, httpUrl(properties, httpPort), features);
        customizers.forEach(customizer -> customizer.customize(config));
        return Members.start(config, features);
    }

    private static String httpUrl(PartitaProperties properties, int httpPort) {
        if (properties.httpUrl() != null && !properties.httpUrl().isBlank()) {
            return properties.httpUrl();
        }
        String bind = properties.network().host();
        String host = bind.matches("[0-9.]+") ? bind : localHostAddress();
        return "http://" + host + ":" + httpPort;
    }

    private static String localHostAddress() {
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            return "127.0.0.1";
        }
    }
}
