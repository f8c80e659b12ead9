package io.partita.web;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.env.Environment;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.security.authentication.AuthenticationFailureReason;
import io.micronaut.security.authentication.AuthenticationRequest;
import io.micronaut.security.authentication.AuthenticationResponse;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.security.authentication.provider.HttpRequestReactiveAuthenticationProvider;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;

/**
 * The API's two users, from {@code partita.security.*} (environment: {@code PARTITA_SECURITY_ADMIN_PASSWORD} and so
 * on), checked by Micronaut Security's basic authentication: an {@code admin} (jobs, schedules, SQL, opening accounts,
 * creating lease groups, and everything a client may do) and a {@code client} (transactions, transfers, batches,
 * reads, lease workers). With neither password set the node runs open, as a single development node does, and says
 * so at start ({@link AccessRule} then admits every request).
 * {@link #authenticate} runs on the request's event loop, once per request that carries credentials
 * (reactive, so Micronaut does not hand it to the blocking pool: it only compares bytes, in constant time); the
 * passwords are read once at start and never changed, so concurrent requests share nothing mutable.
 */
@Singleton
public class ApiUsers implements HttpRequestReactiveAuthenticationProvider<Object> {

    public static final String ADMIN = "admin";
    public static final String CLIENT = "client";

    /** Micronaut Security's filter, on unless this says false; see {@link #startupProperties}. */
    public static final String SECURITY_FILTER = "micronaut.security.filter.enabled";
    private static final String ADMIN_PASSWORD = "partita.security.admin.password";
    private static final String CLIENT_PASSWORD = "partita.security.client.password";
    private static final Logger LOG = LoggerFactory.getLogger(ApiUsers.class);

    private final String adminName;
    private final byte[] adminPassword;
    private final String clientName;
    private final byte[] clientPassword;

    ApiUsers(@Value("${partita.security.admin.username:admin}") String adminName,
             @Nullable @Value("${" + ADMIN_PASSWORD + ":}") String adminPassword,
             @Value("${partita.security.client.username:client}") String clientName,
             @Nullable @Value("${" + CLIENT_PASSWORD + ":}") String clientPassword) {
        this.adminName = adminName;
        this.adminPassword = bytes(adminPassword);
        this.clientName = clientName;
        this.clientPassword = bytes(clientPassword);
        if (adminName.equals(clientName) && this.adminPassword != null && this.clientPassword != null) {
            throw new IllegalStateException("partita.security.admin.username and client.username must differ");
        }
    }

    /**
     * What a node started with {@code args} adds to its configuration: with no credentials configured, Micronaut
     * Security's filter is turned off ({@code micronaut.security.filter.enabled=false}). The filter would admit every
     * request anyway ({@link AccessRule}), but it runs each one inside a reactive chain of its own, which cost an open
     * node's hottest route about a tenth of its throughput; a node with credentials keeps it. The configuration is
     * read as the node will read it (files, environment, system properties, arguments), before the node starts.
     */
    public static Map<String, Object> startupProperties(String[] args) {
        try (ApplicationContext probe = ApplicationContext.builder().args(args).build()) {
            Environment environment = probe.getEnvironment().start();
            return open(environment.getProperty(ADMIN_PASSWORD, String.class).orElse(null),
                    environment.getProperty(CLIENT_PASSWORD, String.class).orElse(null))
                    ? Map.of(SECURITY_FILTER, false) : Map.of();
        }
    }

    /** Whether no credentials are configured: every request is admitted, as on a development node. */
    public boolean open() {
        return adminPassword == null && clientPassword == null;
    }

    /** The one rule of an open node: neither password set (empty or blank counts as not set). */
    private static boolean open(@Nullable String adminPassword, @Nullable String clientPassword) {
        return bytes(adminPassword) == null && bytes(clientPassword) == null;
    }

    @EventListener
    void onStartup(StartupEvent event) {
        if (open()) {
            LOG.warn("No credentials are configured (partita.security.admin.password, "
                    + "partita.security.client.password): this node's HTTP API is open to anyone who can reach it, "
                    + "jobs, schedules and SQL included. "
                    + "Set them for anything but a development node.");
        } else {
            LOG.info("HTTP API secured: basic authentication, roles admin ({}) and client ({})",
                    adminPassword == null ? "no password set: disabled" : adminName,
                    clientPassword == null ? "no password set: disabled" : clientName);
        }
    }

    @Override
    public Publisher<AuthenticationResponse> authenticate(HttpRequest<Object> request,
                                                          AuthenticationRequest<String, String> authentication) {
        return Publishers.just(check(authentication));
    }

    AuthenticationResponse check(AuthenticationRequest<String, String> authentication) {
        String name = authentication.getIdentity();
        byte[] given = authentication.getSecret() == null ? new byte[0]
                : authentication.getSecret().getBytes(StandardCharsets.UTF_8);
        if (adminPassword != null && adminName.equals(name) && MessageDigest.isEqual(adminPassword, given)) {
            return AuthenticationResponse.success(name, List.of(ADMIN, CLIENT));
        }
        if (clientPassword != null && clientName.equals(name) && MessageDigest.isEqual(clientPassword, given)) {
            return AuthenticationResponse.success(name, List.of(CLIENT));
        }
        return AuthenticationResponse.failure(AuthenticationFailureReason.CREDENTIALS_DO_NOT_MATCH);
    }

    private static byte[] bytes(String password) {
        return password == null || password.isBlank() ? null : password.getBytes(StandardCharsets.UTF_8);
    }
}
