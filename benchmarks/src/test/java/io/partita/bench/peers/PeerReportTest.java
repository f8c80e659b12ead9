package io.partita.bench.peers;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeerReportTest {

    private static Row row(Peer peer, int accounts, double txPerSecond, double cores) {
        return new Row(peer, accounts, new Trial.Outcome(20, (long) (txPerSecond * 20), txPerSecond, 0.5, 2.5, cores,
                0.4, 1000, 80, 20, 0, "checked", "server"), null);
    }

    private static final List<Row> ROWS = List.of(
            row(Peer.PARTITA_1, 100_000, 10_000, 1.25),
            row(Peer.POSTGRES_ASYNC, 100_000, 4_000, 1.6),
            new Row(Peer.REDIS, 100_000, null, "CORRECTNESS CHECK FAILED: 1 accounts not equal | x"),
            row(Peer.REDIS, 16, 20_000, 0.8));

    @Test
    void theTableGivesEachSystemsRatioToPartitaOnOneMemberOnTheSameAccounts() {
        String table = Report.markdown(ROWS);
        assertTrue(table.contains("| spread (100,000 accounts) | PostgreSQL, synchronous_commit=off | 4,000 | 0.50 | "
                + "2.50 | 1.60 | 2,500 | 0.40 | 0.40 | 0.31 | 8.0% |"), table);
        assertTrue(table.contains("| spread (100,000 accounts) | Redis, no persistence | FAILED: CORRECTNESS CHECK "
                + "FAILED: 1 accounts not equal / x |"), table);
        // No Partita row on 16 accounts: no ratio.
        assertTrue(table.contains("| hot (16 accounts) | Redis, no persistence | 20,000 | 0.50 | 2.50 | 0.80 | 25,000 "
                + "| 0.40 | n/a | n/a | 8.0% |"), table);
    }

    @Test
    void theChartIsWellFormedSvgWithABarPairPerPassedTrial() throws Exception {
        String svg = SvgChart.draw(ROWS, "Peers <test>", "2 cores & more");
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", document.getDocumentElement().getTagName());
        // The background, then two bars per passed trial.
        assertEquals(1 + 2 * 3, document.getElementsByTagName("rect").getLength());
        assertTrue(svg.contains("10,000 tx/s") && svg.contains("8,000 per core (1.25 cores)"), svg);
        assertTrue(svg.contains("failed (see the results file)"), svg);
    }

    @Test
    void theJsonAndCsvCarryEveryTrialAndTheFailure() {
        String json = Report.json(Map.of("date", "today \"quoted\""), ROWS);
        assertTrue(json.contains("\"date\": \"today \\\"quoted\\\"\""), json);
        assertTrue(json.contains("\"vsPartita1\": 0.400"), json);
        assertTrue(json.contains("\"failure\": \"CORRECTNESS CHECK FAILED"), json);
        String csv = Report.csv(ROWS);
        assertEquals(5, csv.lines().count(), csv);
        assertTrue(csv.lines().allMatch(line -> line.split(",", -1).length == 17
                || line.contains("\"CORRECTNESS")), csv);
    }
}
