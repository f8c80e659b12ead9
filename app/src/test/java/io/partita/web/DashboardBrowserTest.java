package io.partita.web;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The dashboard in a real browser: Debian's headless Chromium, driven through the system's chromedriver, loads the
 * page from a running 2-member cluster, finds 271 cells whose owners are those of {@code /cluster/partitions}, and
 * sees the grid redraw with one owner after the other member leaves. Skipped only where Chromium is not installed
 * ({@code apt-get install chromium chromium-driver}; {@code .ci/run} does it).
 */
class DashboardBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String READ_CELLS = """
            return Array.from(document.querySelectorAll('#grid .cell'))
                .map(cell => [cell.dataset.partition, cell.dataset.owner]);""";

    private static final String ONLY_OWN_ASSETS = """
            return Array.from(document.querySelectorAll('script[src], link[href], img[src]'))
                .every(element => new URL(element.src || element.href).origin === location.origin);""";

    @TempDir
    Path profile;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldDrawEveryPartitionInItsOwnersColourAndRedrawWhenAMemberLeaves() {
        assumeTrue(Files.isExecutable(CHROMIUM), "Chromium is not installed at " + CHROMIUM);

        try (TestNodes nodes = TestNodes.start(2)) {
            Map<String, Account> accounts = new HashMap<>();
            for (int i = 0; i < 500; i++) {
                accounts.put("acct-" + i, Account.open(100, 0));
            }
            AccountFeature.accounts(nodes.member(0)).putAll(accounts);
            nodes.awaitSize(2);

            ChromeDriver browser = browser();
            try {
                browser.get(nodes.url(0) + "/");

                await().atMost(Duration.ofSeconds(30)).until(() -> cells(browser).size() == 271
                        && cells(browser).values().stream().noneMatch(String::isEmpty));
                assertEquals(Boolean.TRUE, browser.executeScript(ONLY_OWN_ASSETS), "the page loads assets elsewhere");
                Map<Integer, String> expected = owners(nodes);
                assertEquals(2, Set.copyOf(expected.values()).size());
                await().atMost(Duration.ofSeconds(10)).until(() -> cells(browser).equals(expected));

                nodes.stop(1);
                nodes.awaitSize(1);
                String survivor = address(nodes.member(0));
                // A graceful leave hands the partitions over before the member goes, so the grid turns to one
                // colour first and the member count follows.
                await().atMost(Duration.ofSeconds(15)).until(() ->
                        Set.copyOf(cells(browser).values()).equals(Set.of(survivor)));
                assertEquals(owners(nodes), cells(browser));
                await().atMost(Duration.ofSeconds(15)).until(() -> "1".equals(browser.executeScript(
                        "return document.getElementById('grid').dataset.members"))
                        && Long.valueOf(1).equals(browser.executeScript(
                        "return document.querySelectorAll('#legend tbody tr').length")));
            } finally {
                browser.quit();
            }
        }
    }

    private ChromeDriver browser() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        return driver;
    }

    /** Every cell's partition id and owner, as the page shows them now. */
    @SuppressWarnings("unchecked")
    private static Map<Integer, String> cells(JavascriptExecutor browser) {
        List<List<String>> cells = (List<List<String>>) browser.executeScript(READ_CELLS);
        Map<Integer, String> owners = new TreeMap<>();
        cells.forEach(cell -> owners.put(Integer.parseInt(cell.get(0)), cell.get(1)));
        return owners;
    }

    /** Every partition's owner, as {@code GET /cluster/partitions} of the first node answers. */
    private static Map<Integer, String> owners(TestNodes nodes) {
        List<Map<String, Object>> partitions = nodes.client(0).toBlocking().retrieve(
                HttpRequest.GET("/cluster/partitions"), Argument.listOf(Argument.mapOf(String.class, Object.class)));
        return partitions.stream().collect(Collectors.toMap(p -> ((Number) p.get("id")).intValue(),
                p -> (String) p.get("owner"), (a, b) -> a, TreeMap::new));
    }

    private static String address(HazelcastInstance member) {
        var address = member.getCluster().getLocalMember().getAddress();
        return address.getHost() + ":" + address.getPort();
    }
}
