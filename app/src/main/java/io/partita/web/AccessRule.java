package io.partita.web;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.micronaut.security.rules.SecurityRuleResult;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Set;

/**
 * Who may call what, in one table, as a Micronaut Security rule (it decides every request before the others):
 * <ul>
 *   <li>anyone: {@code /health} (probes), {@code /prometheus} (scrapers), and the API's own description:
 *   {@code /openapi}, {@code /openapi/ui} and the Swagger UI page's files under {@code /swagger-ui/};</li>
 *   <li>admin: {@code /jobs}, {@code /schedules}, {@code /sql}, opening an account ({@code POST /accounts}), creating
 *   and deleting lease groups ({@code PUT}/{@code DELETE /groups/{group}}), declaring missing members gone
 *   ({@code DELETE /cluster/missing}) and lost partitions' data gone for good ({@code DELETE /cluster/lost});</li>
 *   <li>client (and admin): everything else: transactions, transfers, batches, reads, the cluster views and the
 *   dashboard, lease workers.</li>
 * </ul>
 * Without credentials configured ({@link ApiUsers#open}) every request is admitted. A request without valid
 * credentials is answered 401 with a Basic challenge, one with a role too low 403, both as problem+json.
 * <b>Threads:</b> on the event loop of each request, a few string comparisons; it keeps only final, unchanging
 * references, so concurrent requests share nothing mutable.
 */
@Singleton
class AccessRule implements SecurityRule<HttpRequest<?>> {

    /** Before Micronaut's own rules, which would otherwise reject what they do not know. */
    static final int ORDER = -1000;
    /**
     * Micronaut's management endpoints other than health and Prometheus: off by default; one turned on deliberately is
     * left to Micronaut's own rule for sensitive endpoints (authenticated callers only), in open mode too.
     */
    private static final Set<String> MANAGEMENT = Set.of("beans", "env", "loggers", "refresh", "routes", "threaddump",
            "info", "stop", "caches", "metrics");

    private final ApiUsers users;

    AccessRule(ApiUsers users) {
        this.users = users;
    }

    @Override
    public Publisher<SecurityRuleResult> check(HttpRequest<?> request, @Nullable Authentication authentication) {
        return Publishers.just(decide(request.getMethod(), request.getPath(),
                authentication == null ? null : authentication.getRoles()));
    }

    SecurityRuleResult decide(HttpMethod method, String rawPath, @Nullable Collection<String> roles) {
        String path = normalized(rawPath);
        if (path == null) {
            return users.open() ? SecurityRuleResult.ALLOWED : SecurityRuleResult.REJECTED;
        }
        int end = path.indexOf('/', 1);
        if (MANAGEMENT.contains(end < 0 ? path.substring(1) : path.substring(1, end))) {
            return SecurityRuleResult.UNKNOWN;
        }
        if (users.open()) {
            return SecurityRuleResult.ALLOWED;
        }
        if (path.equals("/health") || path.startsWith("/health/") || path.equals("/prometheus")
                || path.equals("/openapi") || path.equals("/openapi/ui") || path.startsWith("/swagger-ui/")) {
            return SecurityRuleResult.ALLOWED;
        }
        String needed = adminOnly(method, path) ? ApiUsers.ADMIN : ApiUsers.CLIENT;
        return roles != null && roles.contains(needed) ? SecurityRuleResult.ALLOWED : SecurityRuleResult.REJECTED;
    }

    private static boolean adminOnly(HttpMethod method, String path) {
        if (under(path, "/jobs") || under(path, "/schedules") || under(path, "/sql")
                || under(path, "/cluster/missing") || under(path, "/cluster/lost")) {
            return true;
        }
        if (method == HttpMethod.POST && (path.equals("/accounts") || path.equals("/accounts/"))) {
            return true;
        }
        // /groups/{group} itself; its workers and fence checks are the clients'.
        return (method == HttpMethod.PUT || method == HttpMethod.DELETE) && path.startsWith("/groups/")
                && path.indexOf('/', "/groups/".length()) < 0;
    }

    /**
     * The path as the router will see it, so that no spelling of an admin route ({@code //jobs}, {@code /x/../sql},
     * {@code /%6Aobs}) passes as a client's: decoded, with repeated slashes, dot segments and a trailing slash gone.
     * Null for a path that cannot be decoded (refused).
     */
    static String normalized(String rawPath) {
        String decoded;
        try {
            decoded = URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : decoded.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                segments.pollLast();
            } else {
                segments.addLast(segment);
            }
        }
        return "/" + String.join("/", segments);
    }

    private static boolean under(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
