package io.partita.load;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadOptionsTest {

    @Test
    void shouldReadTheDocumentedCommandLine() {
        LoadOptions options = LoadOptions.parse("--targets", "http://localhost:8080,http://localhost:8081/",
                "--accounts", "1000", "--duration", "60s", "--mode", "partitioned", "--retries", "20%",
                "--transfers", "0.3", "--concurrency", "8", "--prefix", "run1");

        assertEquals(List.of(URI.create("http://localhost:8080"), URI.create("http://localhost:8081")),
                options.targets());
        assertEquals(Duration.ofSeconds(60), options.duration());
        assertEquals(0.2, options.retryShare(), 1e-9);
        assertEquals(0.3, options.transferShare(), 1e-9);
        assertEquals(8, options.concurrency());
        assertEquals("run1", options.prefix());
    }

    @Test
    void shouldAcceptIso8601DurationsAsTheUsageSays() {
        LoadOptions options = LoadOptions.parse("--targets", "http://x:1", "--duration", "PT30S",
                "--attempt-timeout", "pt2.5s", "--give-up", "PT1M", "--settle", "P0DT1H");

        assertEquals(Duration.ofSeconds(30), options.duration());
        assertEquals(Duration.ofMillis(2500), options.attemptTimeout());
        assertEquals(Duration.ofMinutes(1), options.giveUp());
        assertEquals(Duration.ofHours(1), options.settle());
    }

    @Test
    void shouldReadTheShortDurationForms() {
        assertEquals(Duration.ofMillis(500), LoadOptions.duration("500ms"));
        assertEquals(Duration.ofSeconds(90), LoadOptions.duration("90s"));
        assertEquals(Duration.ofMinutes(2), LoadOptions.duration(" 2M "));
    }

    @Test
    void shouldRefuseADurationItCannotReadNamingTheTextGiven() {
        for (String bad : new String[] {"PT", "P1X", "tens", "12", "1.5m"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LoadOptions.parse("--targets", "http://x:1", "--duration", bad));
            assertTrue(e.getMessage().contains(bad), e::getMessage);
        }
    }

    @Test
    void shouldRefuseAMissingTargetAndAnUnknownMode() {
        assertThrows(IllegalArgumentException.class, () -> LoadOptions.parse("--accounts", "10"));
        assertThrows(IllegalArgumentException.class,
                () -> LoadOptions.parse("--targets", "http://x:1", "--mode", "fast"));
    }
}
