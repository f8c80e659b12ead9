package io.partita.web;

import io.partita.client.NotFoundException;
import io.partita.client.PartitaClient;
import io.partita.client.TlsException;
import io.partita.support.Ports;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTPS as the README sets it up: a self-signed certificate made with the JDK's keytool, handed to the node through
 * {@code micronaut.ssl.*}, and a client that trusts exactly that certificate. The node answers over TLS, with basic
 * authentication on top, and a client that does not trust the certificate is refused by its own TLS check. The node
 * advertises its HTTPS URL in the partition table, which the partition-aware Java client routes by.
 */
class HttpsTest {

    private static final String PASSWORD = "changeit-" + Long.toHexString(System.nanoTime());

    @Test
    @SuppressWarnings("try") // the resource is held for the block's length, not used in it
    void shouldServeTheApiOverTlsWithASelfSignedCertificate(@TempDir Path dir) throws Exception {
        Path keystore = dir.resolve("partita.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "partita", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0,
                new String(keytool.getInputStream().readAllBytes()));

        int httpsPort = Ports.free();
        try (TestNodes nodes = TestNodes.start(1, Map.of(
                "micronaut.server.ssl.enabled", true,
                "micronaut.server.ssl.port", httpsPort,
                "micronaut.ssl.key-store.path", "file:" + keystore,
                "micronaut.ssl.key-store.password", PASSWORD,
                "micronaut.ssl.key-store.type", "PKCS12",
                "partita.security.client.password", "client-secret"))) {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keystore)) {
                trusted.load(in, PASSWORD.toCharArray());
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, trust.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
            URI cluster = URI.create("https://localhost:" + httpsPort + "/cluster");

            HttpResponse<String> anonymous = client.send(HttpRequest.newBuilder(cluster).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, anonymous.statusCode(), anonymous.body());
            String basic = java.util.Base64.getEncoder().encodeToString("client:client-secret".getBytes());
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(cluster)
                    .header("Authorization", "Basic " + basic).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("\"partitionCount\":271"), answer.body());
            // The node advertises its HTTPS port, so the partition-aware client reaches it there.
            assertTrue(answer.body().contains("\"httpUrl\":\"https://127.0.0.1:" + httpsPort + "\""), answer.body());
            try (PartitaClient partita = PartitaClient.builder("https://localhost:" + httpsPort).tls(tls)
                    .credentials("client", "client-secret").retryBudget(Duration.ofSeconds(20)).build()) {
                // A definite answer from the owner (no such account), over TLS.
                assertThrows(NotFoundException.class, () -> partita.account("tls-1"));
            }

            HttpClient untrusting = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThrows(javax.net.ssl.SSLHandshakeException.class, () -> untrusting.send(
                    HttpRequest.newBuilder(cluster).build(), HttpResponse.BodyHandlers.ofString()));
            // The Java client that does not trust it is refused at once, not retried as an unknown outcome.
            try (PartitaClient partita = PartitaClient.builder("https://localhost:" + httpsPort)
                    .credentials("client", "client-secret").partitionAware(false).build()) {
                assertThrows(TlsException.class, () -> partita.account("tls-1"));
            }
        }
    }
}
