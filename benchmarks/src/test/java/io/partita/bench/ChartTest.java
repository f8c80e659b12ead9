package io.partita.bench;

import io.micronaut.json.JsonMapper;
import io.micronaut.json.tree.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChartTest {

    private static final String RESULTS = """
            [
              {"jmhVersion": "1.37", "benchmark": "io.partita.bench.LockVsPartitionBenchmark.post", "threads": 16,
               "forks": 1, "warmupIterations": 2, "warmupTime": "5 s", "measurementIterations": 3,
               "measurementTime": "5 s", "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "17.0.15+6",
               "params": {"accounts": "16", "members": "3", "mode": "LOCKED"},
               "primaryMetric": {"score": 812.5, "scoreError": 40.1, "scoreUnit": "ops/s",
                                 "scorePercentiles": {"0.0": 790.0, "50.0": 815.0, "100.0": 832.5}}},
              {"jmhVersion": "1.37", "benchmark": "io.partita.bench.LockVsPartitionBenchmark.post", "threads": 16,
               "params": {"accounts": "16", "members": "3", "mode": "PARTITIONED"},
               "primaryMetric": {"score": 4100.0, "scoreError": "NaN", "scoreUnit": "ops/s"}},
              {"jmhVersion": "1.37", "benchmark": "io.partita.bench.LockVsPartitionBenchmark.post", "threads": 16,
               "params": {"accounts": "100000", "members": "3", "mode": "LOCKED"},
               "primaryMetric": {"score": 700.0, "scoreError": 12.0, "scoreUnit": "ops/s"}}
            ]
            """;

    @Test
    void shouldDrawOneGroupPerParameterSetWithOneBarPerMode(@TempDir Path dir) throws Exception {
        Path json = Files.writeString(dir.resolve("results.json"), RESULTS);
        Path png = dir.resolve("charts/results.png");

        Chart.main(new String[]{json.toString(), png.toString(), "Lock per message vs partitioned"});

        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image.getWidth() >= 600 && image.getHeight() >= 500, image.getWidth() + "x" + image.getHeight());
    }

    @Test
    void shouldTakeTheModeAsTheBarAndTheOtherParametersAsTheGroup() throws Exception {
        JsonNode root = JsonMapper.createDefault().readValue(RESULTS.getBytes(StandardCharsets.UTF_8), JsonNode.class);

        assertEquals(List.of(
                        new Chart.Result("accounts 16\nmembers 3", "LOCKED", 812.5, 40.1, 790.0, 832.5, "ops/s"),
                        new Chart.Result("accounts 16\nmembers 3", "PARTITIONED", 4100.0, 0, 4100.0, 4100.0,
                                "ops/s"),
                        new Chart.Result("accounts 100000\nmembers 3", "LOCKED", 700.0, 12.0, 700.0, 700.0,
                                "ops/s")),
                Chart.results(root));
    }

    @Test
    void shouldTabulateOneRowPerGroupAndOneColumnPerMode() throws Exception {
        JsonNode root = JsonMapper.createDefault().readValue(RESULTS.getBytes(StandardCharsets.UTF_8), JsonNode.class);

        assertEquals("""
                        | | LOCKED | PARTITIONED |
                        |---|---:|---:|
                        | accounts 16, members 3 | 813 (790-833) | 4,100 (4,100-4,100) |
                        | accounts 100000, members 3 | 700 (700-700) | |
                        """,
                Chart.table(Chart.results(root)));
    }

    @Test
    void shouldRoundTheAxisUpToOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(5_000, Chart.niceCeiling(4_100));
        assertEquals(20_000, Chart.niceCeiling(12_001));
        assertEquals(1_000, Chart.niceCeiling(1_000));
    }
}
