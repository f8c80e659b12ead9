package io.partita.web;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micronaut.http.HttpMethod;
import io.micronaut.security.rules.SecurityRuleResult;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The access table as a plain function, and the open mode's warning at start. */
class AccessRuleTest {

    private final AccessRule secured = new AccessRule(new ApiUsers("admin", "a", "client", "c"));
    private static final List<String> CLIENT = List.of(ApiUsers.CLIENT);
    private static final List<String> ADMIN = List.of(ApiUsers.ADMIN, ApiUsers.CLIENT);

    @Test
    void shouldKeepAdminRoutesFromClientsHoweverThePathIsSpelled() {
        for (String path : List.of("/jobs", "/jobs/fee-1", "//jobs", "/jobs/", "/a/../jobs", "/%6Aobs", "/./sql",
                "/schedules/nightly", "/sql")) {
            assertEquals(SecurityRuleResult.REJECTED, secured.decide(HttpMethod.POST, path, CLIENT), path);
            assertEquals(SecurityRuleResult.ALLOWED, secured.decide(HttpMethod.POST, path, ADMIN), path);
        }
        assertEquals(SecurityRuleResult.REJECTED, secured.decide(HttpMethod.POST, "/accounts", CLIENT));
        assertEquals(SecurityRuleResult.REJECTED, secured.decide(HttpMethod.PUT, "/groups/g", CLIENT));
        // Declaring missing members gone changes how the whole cluster decides: an admin's call, however spelled.
        // So is accepting that lost partitions' data is gone: their accounts start empty.
        for (String path : List.of("/cluster/missing", "//cluster/missing", "/cluster/missing/", "/x/../cluster/missing",
                "/cluster/lost", "/cluster/lost/", "//cluster//lost")) {
            assertEquals(SecurityRuleResult.REJECTED, secured.decide(HttpMethod.DELETE, path, CLIENT), path);
            assertEquals(SecurityRuleResult.ALLOWED, secured.decide(HttpMethod.DELETE, path, ADMIN), path);
        }
        assertEquals(SecurityRuleResult.REJECTED, secured.decide(HttpMethod.GET, "/%zz", CLIENT), "undecodable");
    }

    @Test
    void shouldLetClientsTransactReadAndWorkLeasesAndAnyoneProbe() {
        for (String path : List.of("/accounts/a-1/transactions", "/transfers", "/transactions/batch",
                "/groups/g/workers", "/groups/g/workers/w1/renew", "/groups/g/fences/check")) {
            assertEquals(SecurityRuleResult.ALLOWED, secured.decide(HttpMethod.POST, path, CLIENT), path);
            assertEquals(SecurityRuleResult.REJECTED, secured.decide(HttpMethod.POST, path, null), path);
        }
        assertEquals(SecurityRuleResult.ALLOWED, secured.decide(HttpMethod.GET, "/accounts/a-1", CLIENT));
        assertEquals(SecurityRuleResult.ALLOWED, secured.decide(HttpMethod.GET, "/cluster/nodes", CLIENT));
        assertEquals(SecurityRuleResult.ALLOWED, secured.decide(HttpMethod.GET, "/health/readiness", null));
        assertEquals(SecurityRuleResult.ALLOWED, secured.decide(HttpMethod.GET, "/prometheus", null));
    }

    @Test
    void shouldRunOpenAndSaySoWhenNoCredentialsAreConfigured() {
        ApiUsers none = new ApiUsers("admin", "", "client", null);
        Logger logger = (Logger) LoggerFactory.getLogger(ApiUsers.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            none.onStartup(null);
        } finally {
            logger.detachAppender(logged);
        }
        assertTrue(none.open());
        assertEquals(SecurityRuleResult.ALLOWED, new AccessRule(none).decide(HttpMethod.POST, "/jobs", null));
        assertTrue(logged.list.stream().anyMatch(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN
                && e.getFormattedMessage().contains("open to anyone")), logged.list.toString());
    }
}
