package io.partita.bench.peers;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The results as an SVG of horizontal bars, one panel per set of accounts (spread, hot): for each system a dark bar
 * of transactions per second and a light one of transactions per second per core the system used, each with its
 * figure; Partita's bars in one colour, the peers' in another. A failed trial shows its name and "failed". Plain SVG
 * text, no library: a browser or GitHub draws it.
 */
final class SvgChart {

    private static final int WIDTH = 960;
    private static final int LABEL = 250;
    private static final int VALUES = 200;
    private static final int BAR = 13;
    private static final int ROW = 2 * BAR + 12;
    private static final int PANEL_HEAD = 34;
    private static final int TOP = 56;
    private static final String PARTITA = "#2471a3";
    private static final String PARTITA_LIGHT = "#a9cce3";
    private static final String PEER = "#c0392b";
    private static final String PEER_LIGHT = "#f1948a";

    private SvgChart() {
    }

    static String draw(List<Row> rows, String title, String subtitle) {
        Set<Integer> cases = new LinkedHashSet<>();
        rows.forEach(row -> cases.add(row.accounts()));
        int height = TOP;
        for (int accounts : cases) {
            height += PANEL_HEAD + ROW * (int) rows.stream().filter(row -> row.accounts() == accounts).count() + 16;
        }
        height += 30;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                        + "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH, height, WIDTH, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
        svg.append(text(16, 24, 17, "bold", "start", title));
        svg.append(text(16, 44, 12, "normal", "start", subtitle));
        int y = TOP;
        int plot = WIDTH - LABEL - VALUES;
        for (int accounts : cases) {
            List<Row> panel = rows.stream().filter(row -> row.accounts() == accounts).toList();
            double max = panel.stream().filter(Row::passed)
                    .mapToDouble(row -> Math.max(row.outcome().txPerSecond(), finite(row.perCore()))).max().orElse(1);
            svg.append(text(16, y + 20, 14, "bold", "start", Row.caseName(accounts)));
            y += PANEL_HEAD;
            for (Row row : panel) {
                boolean partita = row.peer().id.startsWith("partita");
                svg.append(text(LABEL - 8, y + BAR + 4, 12, "normal", "end", row.peer().label));
                if (!row.passed()) {
                    svg.append(text(LABEL, y + BAR + 4, 12, "italic", "start", "failed (see the results file)"));
                } else {
                    double perSecond = row.outcome().txPerSecond();
                    double perCore = finite(row.perCore());
                    svg.append(bar(LABEL, y, plot * perSecond / max, partita ? PARTITA : PEER,
                            String.format(Locale.ROOT, "%,.0f tx/s", perSecond)));
                    svg.append(bar(LABEL, y + BAR + 2, plot * perCore / max, partita ? PARTITA_LIGHT : PEER_LIGHT,
                            String.format(Locale.ROOT, "%,.0f per core (%.2f cores)", perCore,
                                    row.outcome().systemCores())));
                }
                y += ROW;
            }
            y += 16;
        }
        svg.append(text(16, y + 8, 11, "normal", "start", "Dark: transactions per second. Light: per core the "
                + "system used (its CPU time over the window). Blue: Partita; red: the peers."));
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static double finite(double value) {
        return Double.isFinite(value) ? value : 0;
    }

    private static String bar(int x, int y, double length, String colour, String figure) {
        double width = Math.max(1, length);
        return String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                x, y, width, BAR, colour)
                + text((int) Math.round(x + width + 6), y + BAR - 2, 11, "normal", "start", figure);
    }

    private static String text(int x, int y, int size, String style, String anchor, String content) {
        String weight = "bold".equals(style) ? " font-weight=\"bold\"" : "italic".equals(style)
                ? " font-style=\"italic\"" : "";
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\"%s text-anchor=\"%s\">%s</text>%n",
                x, y, size, weight, anchor, escape(content));
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
