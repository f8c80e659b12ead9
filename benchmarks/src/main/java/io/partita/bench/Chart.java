package io.partita.bench;

import io.micronaut.json.JsonMapper;
import io.micronaut.json.tree.JsonNode;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Draws JMH's JSON results ({@code -rf json -rff results.json}) as a grouped bar chart in a PNG, with no tool beyond
 * the JDK, and prints the same results as a Markdown table. One group of bars per combination of parameters other
 * than {@code mode}, one bar per mode; the bar is JMH's score (the mean of the measured iterations), the whisker spans
 * the slowest to the fastest measured iteration, the figure is written above it. Results of several benchmarks in one
 * file get groups of their own.
 *
 * <p>Why the whisker is the iterations' range and not JMH's {@code scoreError}: with the few iterations a full run can
 * afford, JMH's 99.9% interval (Student's t with n-1 degrees of freedom) is many times the score and flattens every
 * bar; the range shows what was actually measured. The JSON keeps {@code scoreError} for anyone who wants it.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar chart results.json chart.png [title]}
 */
public final class Chart {

    private static final Color[] PALETTE = {
        new Color(0xC0392B), new Color(0x2471A3), new Color(0x5DADE2), new Color(0xE59866), new Color(0x7F8C8D),
        new Color(0x27AE60), new Color(0x8E44AD)};
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 18);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    private static final Font AXIS = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final int BAR = 48;
    private static final int GROUP_GAP = 40;
    private static final int LEFT = 96;
    private static final int RIGHT = 24;
    private static final int TOP = 92;
    private static final int PLOT_HEIGHT = 380;
    private static final int BOTTOM = 120;

    /** One benchmark result: its score, JMH's 99.9% error, and its slowest and fastest measured iteration. */
    record Result(String group, String series, double score, double error, double min, double max, String unit) {
    }

    private Chart() {
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        if (args.length < 2) {
            System.err.println("usage: Chart results.json chart.png [title]");
            System.exit(2);
        }
        Path json = Path.of(args[0]);
        Path png = Path.of(args[1]);
        JsonNode root = JsonMapper.createDefault().readValue(Files.readAllBytes(json), JsonNode.class);
        List<Result> results = results(root);
        if (results.isEmpty()) {
            throw new IllegalArgumentException(json + " holds no JMH results");
        }
        String title = args.length > 2 ? args[2] : defaultTitle(root);
        if (png.getParent() != null) {
            Files.createDirectories(png.getParent());
        }
        ImageIO.write(draw(results, title, footer(root)), "png", png.toFile());
        System.out.println("wrote " + png + " (" + results.size() + " results)");
        System.out.print(table(results));
    }

    static List<Result> results(JsonNode root) {
        Set<String> benchmarks = new LinkedHashSet<>();
        for (JsonNode run : root.values()) {
            benchmarks.add(className(run.get("benchmark").getStringValue()));
        }
        List<Result> results = new ArrayList<>();
        for (JsonNode run : root.values()) {
            List<String> group = new ArrayList<>();
            if (benchmarks.size() > 1) {
                group.add(className(run.get("benchmark").getStringValue()));
            }
            String series = "score";
            JsonNode params = run.get("params");
            if (params != null) {
                for (Map.Entry<String, JsonNode> param : params.entries()) {
                    if (param.getKey().equals("mode")) {
                        series = param.getValue().getStringValue();
                    } else {
                        group.add(param.getKey() + " " + param.getValue().getStringValue());
                    }
                }
            }
            JsonNode metric = run.get("primaryMetric");
            double score = metric.get("score").getDoubleValue();
            results.add(new Result(String.join("\n", group), series, score, number(metric.get("scoreError")),
                    percentile(metric, "0.0", score), percentile(metric, "100.0", score),
                    metric.get("scoreUnit").getStringValue()));
        }
        return results;
    }

    /** JMH writes "NaN" as a string where it has no figure (a single iteration). */
    private static double number(JsonNode node) {
        return node != null && node.isNumber() ? node.getDoubleValue() : 0;
    }

    private static double percentile(JsonNode metric, String which, double fallback) {
        JsonNode percentiles = metric.get("scorePercentiles");
        JsonNode value = percentiles == null ? null : percentiles.get(which);
        return value != null && value.isNumber() ? value.getDoubleValue() : fallback;
    }

    private static String className(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts.length >= 2 ? parts[parts.length - 2] : benchmark;
    }

    private static String defaultTitle(JsonNode root) {
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode run : root.values()) {
            names.add(className(run.get("benchmark").getStringValue()));
        }
        return String.join(", ", names);
    }

    /** How the results were measured, from the first result: JMH's settings and any -D flag given to the forks. */
    private static String footer(JsonNode root) {
        JsonNode first = root.values().iterator().next();
        List<String> properties = new ArrayList<>();
        JsonNode jvmArgs = first.get("jvmArgs");
        if (jvmArgs != null) {
            for (JsonNode arg : jvmArgs.values()) {
                if (arg.getStringValue().startsWith("-D")) {
                    properties.add(arg.getStringValue());
                }
            }
        }
        return String.format(Locale.ROOT, "JMH %s, %s threads, %s fork(s), %s x %s warm-up, %s x %s measured; "
                        + "whiskers: slowest to fastest iteration%nJVM %s%s",
                text(first, "jmhVersion"), text(first, "threads"), text(first, "forks"),
                text(first, "warmupIterations"), text(first, "warmupTime"), text(first, "measurementIterations"),
                text(first, "measurementTime"), text(first, "vmVersion"),
                properties.isEmpty() ? "" : " " + String.join(" ", properties));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            return "?";
        }
        return value.isNumber() ? String.valueOf(value.getIntValue()) : value.getStringValue();
    }

    /** The same results as a Markdown table, one row per group, one column per mode: score (slowest-fastest). */
    static String table(List<Result> results) {
        Map<String, Map<String, Result>> groups = grouped(results);
        Set<String> series = seriesOf(results);
        StringBuilder table = new StringBuilder("| |");
        series.forEach(name -> table.append(' ').append(name).append(" |"));
        table.append("\n|---|");
        series.forEach(name -> table.append("---:|"));
        table.append('\n');
        groups.forEach((group, row) -> {
            table.append("| ").append(group.replace("\n", ", ")).append(" |");
            for (String name : series) {
                Result result = row.get(name);
                table.append(result == null ? " |" : String.format(Locale.ROOT, " %,.0f (%,.0f-%,.0f) |",
                        result.score(), result.min(), result.max()));
            }
            table.append('\n');
        });
        return table.toString();
    }

    static BufferedImage draw(List<Result> results, String title, String footer) {
        Map<String, Map<String, Result>> groups = grouped(results);
        List<String> series = List.copyOf(seriesOf(results));
        int groupWidth = series.size() * BAR + GROUP_GAP;
        int width = LEFT + RIGHT + Math.max(Math.max(groups.size() * groupWidth, legendWidth(series)),
                Math.max(linesWidth(TITLE, title), linesWidth(SMALL, footer)));
        int height = TOP + PLOT_HEIGHT + BOTTOM;
        double top = niceCeiling(results.stream().mapToDouble(r -> Math.max(r.score(), r.max())).max().orElse(1));

        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);

        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        g.drawString(title, LEFT, 30);
        legend(g, series, LEFT, 58);

        int baseline = TOP + PLOT_HEIGHT;
        g.setFont(AXIS);
        for (int tick = 0; tick <= 5; tick++) {
            double value = top * tick / 5;
            int y = baseline - scaled(value, top);
            g.setColor(new Color(0xE5E7E9));
            g.drawLine(LEFT, y, width - RIGHT, y);
            g.setColor(Color.DARK_GRAY);
            String label = String.format(Locale.ROOT, "%,.0f", value);
            g.drawString(label, LEFT - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        String unit = results.get(0).unit();
        g.rotate(-Math.PI / 2);
        g.drawString(unit, -(TOP + PLOT_HEIGHT / 2) - g.getFontMetrics().stringWidth(unit) / 2, 18);
        g.rotate(Math.PI / 2);

        int x = LEFT + GROUP_GAP / 2;
        for (Map.Entry<String, Map<String, Result>> group : groups.entrySet()) {
            for (int s = 0; s < series.size(); s++) {
                Result result = group.getValue().get(series.get(s));
                if (result != null) {
                    bar(g, result, x + s * BAR, baseline, top, PALETTE[s % PALETTE.length]);
                }
            }
            g.setColor(Color.BLACK);
            g.setFont(LABEL);
            FontMetrics metrics = g.getFontMetrics();
            int lineY = baseline + 20;
            for (String line : group.getKey().split("\n")) {
                g.drawString(line, x + (series.size() * BAR - metrics.stringWidth(line)) / 2, lineY);
                lineY += 16;
            }
            x += groupWidth;
        }
        g.setColor(Color.GRAY);
        g.drawLine(LEFT, baseline, width - RIGHT, baseline);
        g.setFont(SMALL);
        String[] footerLines = footer.split("\\R");
        for (int line = 0; line < footerLines.length; line++) {
            g.drawString(footerLines[line], LEFT, height - 14 - 15 * (footerLines.length - 1 - line));
        }
        g.dispose();
        return image;
    }

    private static Map<String, Map<String, Result>> grouped(List<Result> results) {
        Map<String, Map<String, Result>> groups = new LinkedHashMap<>();
        for (Result result : results) {
            groups.computeIfAbsent(result.group(), key -> new LinkedHashMap<>()).put(result.series(), result);
        }
        return groups;
    }

    private static Set<String> seriesOf(List<Result> results) {
        Set<String> series = new LinkedHashSet<>();
        results.forEach(result -> series.add(result.series()));
        return series;
    }

    private static int scaled(double value, double top) {
        return (int) Math.round(PLOT_HEIGHT * value / top);
    }

    private static void bar(Graphics2D g, Result result, int x, int baseline, double top, Color color) {
        int barHeight = scaled(result.score(), top);
        g.setColor(color);
        g.fillRect(x + 4, baseline - barHeight, BAR - 8, barHeight);
        int high = baseline - scaled(result.max(), top);
        if (result.max() > result.min()) {
            int low = baseline - scaled(result.min(), top);
            int middle = x + BAR / 2;
            g.setColor(Color.BLACK);
            g.setStroke(new BasicStroke(1.2f));
            g.drawLine(middle, low, middle, high);
            g.drawLine(middle - 5, high, middle + 5, high);
            g.drawLine(middle - 5, low, middle + 5, low);
        }
        g.setColor(Color.BLACK);
        g.setFont(SMALL);
        String label = String.format(Locale.ROOT, "%,.0f", result.score());
        int labelY = Math.min(baseline - barHeight, high) - 5;
        g.drawString(label, x + (BAR - g.getFontMetrics().stringWidth(label)) / 2, labelY);
    }

    private static void legend(Graphics2D g, List<String> series, int x, int y) {
        g.setFont(LABEL);
        int at = x;
        for (int s = 0; s < series.size(); s++) {
            g.setColor(PALETTE[s % PALETTE.length]);
            g.fillRect(at, y - 11, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(series.get(s), at + 20, y + 1);
            at += legendEntryWidth(g.getFontMetrics(), series.get(s));
        }
    }

    private static int legendWidth(List<String> series) {
        FontMetrics metrics = metrics(LABEL);
        return series.stream().mapToInt(name -> legendEntryWidth(metrics, name)).sum();
    }

    private static int legendEntryWidth(FontMetrics metrics, String name) {
        return 20 + metrics.stringWidth(name) + 24;
    }

    private static int linesWidth(Font font, String text) {
        FontMetrics metrics = metrics(font);
        return text.lines().mapToInt(metrics::stringWidth).max().orElse(0);
    }

    private static FontMetrics metrics(Font font) {
        Graphics2D scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
        try {
            return scratch.getFontMetrics(font);
        } finally {
            scratch.dispose();
        }
    }

    /** The smallest 1, 2 or 5 times a power of ten at or above {@code value}, so the axis has round ticks. */
    static double niceCeiling(double value) {
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[]{1, 2, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }
}
