package io.partita.node;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.env.Environment;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

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
                                        Environment environment, List<Feature> features,
                                        List<MemberConfigCustomizer> customizers) {
        if (ContextStops.stopping(context)) {
            throw new HazelcastInstanceNotActiveException("This node is stopping; its member does not start again.");
        }
        boolean https = setting(environment, "ssl.enabled", Boolean.class).orElse(false);
        String url = https ? httpUrl(properties, "https", setting(environment, "ssl.port", Integer.class).orElse(8443))
                : httpUrl(properties, "http", httpPort);
        Config config = HazelcastConfigs.memberConfig(properties, url, features);
        customizers.forEach(customizer -> customizer.customize(config));
        return Members.start(config, features);
    }

    /**
     * The URL this node advertises to clients (the partition table's {@code httpUrl}): {@code partita.http-url} when
     * set, else the bind address (or this host's) with the port it serves on: its HTTPS port when it serves HTTPS
     * (then only that, unless Micronaut's dual protocol is on), its HTTP port otherwise.
     */
    private static String httpUrl(PartitaProperties properties, String scheme, int port) {
        if (properties.httpUrl() != null && !properties.httpUrl().isBlank()) {
            return properties.httpUrl();
        }
        String bind = properties.network().host();
        String host = bind.matches("[0-9.]+") ? bind : localHostAddress();
        return scheme + "://" + host + ":" + port;
    }

    /** Micronaut's server TLS setting {@code name}: {@code micronaut.server.<name>}, else {@code micronaut.<name>}. */
    private static <T> Optional<T> setting(Environment environment, String name, Class<T> type) {
        return environment.getProperty("micronaut.server." + name, type)
                .or(() -> environment.getProperty("micronaut." + name, type));
    }

    private static String localHostAddress() {
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            return "127.0.0.1";
        }
    }
}
