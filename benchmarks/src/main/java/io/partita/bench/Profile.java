package io.partita.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where does the CPU time go? Reads a JDK Flight Recorder file and prints, from its execution samples (the JVM's
 * periodic snapshots of threads running Java code), the hottest methods by self samples (the method on top of the
 * stack) and by total samples (the method anywhere on the stack), the share of each area of code (Hazelcast, Netty,
 * Micronaut, Partita, the harness, the JDK) and of each group of threads.
 *
 * <p>With {@code --phase NAME} only the samples taken while a measured {@link Throughput} phase of that name ran are
 * counted (the harness marks each with a {@link Throughput.PhaseEvent}); {@code --nodes N} narrows it to one cluster.
 *
 * <p>Run:
 * <pre>
 * java -XX:StartFlightRecording=filename=throughput.jfr,settings=profile \
 *      -jar benchmarks/target/benchmarks.jar throughput 20 1 --phases grid-path,http-single
 * java -jar benchmarks/target/benchmarks.jar profile throughput.jfr --phase http-single --top 25
 * </pre>
 * Samples are of threads running Java code only: time blocked, waiting, or in native code (epoll, socket writes) is
 * not in them, so the shares say where the cores ran Java code, not where requests waited.
 */
public final class Profile {

    static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    static final String PHASE_EVENT = "io.partita.bench.Phase";
    static final List<String> AREAS = List.of("hazelcast", "netty", "micronaut", "partita", "harness", "jdk", "other");

    private static final Pattern UUID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern HAZELCAST_INSTANCE = Pattern.compile("^hz\\.[^.]+\\.");
    private static final Pattern NUMBER = Pattern.compile("\\d+");

    private Profile() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: profile recording.jfr [--top N] [--phase NAME] [--nodes N]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        int top = 25;
        String phase = null;
        Integer nodes = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--top" -> top = Integer.parseInt(args[++i]);
                case "--phase" -> phase = args[++i];
                case "--nodes" -> nodes = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        List<Window> windows = phases(file);
        String scope = "the whole recording";
        if (phase != null) {
            String wanted = phase;
            Integer wantedNodes = nodes;
            windows = windows.stream()
                    .filter(w -> w.phase().equals(wanted) && (wantedNodes == null || w.nodes() == wantedNodes))
                    .toList();
            if (windows.isEmpty()) {
                System.err.println("no measured phase " + phase + (nodes == null ? "" : " on " + nodes + " node(s)")
                        + " in " + file + "; phases found: " + phases(file));
                System.exit(1);
            }
            scope = windows.size() + " window(s) of phase " + phase
                    + (nodes == null ? "" : " on " + nodes + " node(s)");
        } else {
            windows = null;
        }
        Aggregation aggregation = read(file, windows);
        System.out.println(file + ", " + scope + ":");
        System.out.print(aggregation.report(top));
    }

    /** A measured phase's time span in a recording. */
    record Window(int nodes, String phase, int concurrency, Instant start, Instant end) {

        boolean contains(Instant time) {
            return !time.isBefore(start) && !time.isAfter(end);
        }

        @Override
        public String toString() {
            return nodes + " node(s) " + phase + "/" + concurrency;
        }
    }

    static List<Window> phases(Path file) throws IOException {
        List<Window> windows = new ArrayList<>();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (event.getEventType().getName().equals(PHASE_EVENT)) {
                    windows.add(new Window(event.getInt("nodes"), event.getString("phase"),
                            event.getInt("concurrency"), event.getStartTime(), event.getEndTime()));
                }
            }
        }
        return windows;
    }

    /** The execution samples of a recording, only those inside {@code windows} unless it is null. */
    static Aggregation read(Path file, List<Window> windows) throws IOException {
        Aggregation aggregation = new Aggregation();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (!event.getEventType().getName().equals(EXECUTION_SAMPLE) || event.getStackTrace() == null
                        || windows != null && windows.stream().noneMatch(w -> w.contains(event.getStartTime()))) {
                    continue;
                }
                RecordedThread thread = event.getThread("sampledThread");
                aggregation.add(thread == null ? "?" : thread.getJavaName(), frames(event.getStackTrace()));
            }
        }
        return aggregation;
    }

    private static List<String> frames(RecordedStackTrace stack) {
        List<String> frames = new ArrayList<>(stack.getFrames().size());
        for (RecordedFrame frame : stack.getFrames()) {
            frames.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName());
        }
        return frames;
    }

    /** The area of code a frame ({@code package.Class.method}) belongs to. */
    static String area(String frame) {
        if (frame.startsWith("com.hazelcast.")) {
            return "hazelcast";
        } else if (frame.startsWith("io.netty.")) {
            return "netty";
        } else if (frame.startsWith("io.micronaut.")) {
            return "micronaut";
        } else if (frame.startsWith("io.partita.bench.")) {
            return "harness";
        } else if (frame.startsWith("io.partita.")) {
            return "partita";
        } else if (frame.startsWith("java.") || frame.startsWith("javax.") || frame.startsWith("jdk.")
                || frame.startsWith("sun.") || frame.startsWith("com.sun.")) {
            return "jdk";
        }
        return "other";
    }

    /** A thread's group: its name without instance names, ids and numbers ("hz.*.partition-operation.thread-N"). */
    static String threadGroup(String thread) {
        String name = UUID.matcher(thread).replaceAll("*");
        name = HAZELCAST_INSTANCE.matcher(name).replaceFirst("hz.*.");
        return NUMBER.matcher(name).replaceAll("N");
    }

    /**
     * Sample counts by method, area and thread group. Self counts the top frame; total counts each method (and each
     * area) once per sample however often it recurs in the stack; "self, JDK to caller" charges a sample whose top
     * frame is JDK code to the area of the nearest non-JDK frame below it (a {@code HashMap.get} called by Hazelcast
     * is Hazelcast's time), or to the JDK when the whole stack is JDK code.
     */
    static final class Aggregation {

        private long samples;
        private final Map<String, Long> self = new HashMap<>();
        private final Map<String, Long> total = new HashMap<>();
        private final Map<String, Long> areaSelf = new HashMap<>();
        private final Map<String, Long> areaCaller = new HashMap<>();
        private final Map<String, Long> areaTotal = new HashMap<>();
        private final Map<String, Long> threads = new HashMap<>();

        /** One sample: its thread's name and its frames, top (running) first, as {@code package.Class.method}. */
        void add(String thread, List<String> frames) {
            if (frames.isEmpty()) {
                return;
            }
            samples++;
            threads.merge(threadGroup(thread), 1L, Long::sum);
            String top = frames.get(0);
            self.merge(top, 1L, Long::sum);
            areaSelf.merge(area(top), 1L, Long::sum);
            String charged = "jdk";
            for (String frame : frames) {
                if (!area(frame).equals("jdk")) {
                    charged = area(frame);
                    break;
                }
            }
            areaCaller.merge(charged, 1L, Long::sum);
            Set<String> methods = new HashSet<>(frames);
            methods.forEach(method -> total.merge(method, 1L, Long::sum));
            Set<String> areas = new LinkedHashSet<>();
            frames.forEach(frame -> areas.add(area(frame)));
            areas.forEach(area -> areaTotal.merge(area, 1L, Long::sum));
        }

        long samples() {
            return samples;
        }

        long self(String method) {
            return self.getOrDefault(method, 0L);
        }

        long total(String method) {
            return total.getOrDefault(method, 0L);
        }

        long areaSelf(String area) {
            return areaSelf.getOrDefault(area, 0L);
        }

        long areaCharged(String area) {
            return areaCaller.getOrDefault(area, 0L);
        }

        long areaTotal(String area) {
            return areaTotal.getOrDefault(area, 0L);
        }

        long thread(String group) {
            return threads.getOrDefault(group, 0L);
        }

        /** The {@code n} methods with the most samples in {@code counts}, most first, ties by name. */
        List<String> top(Map<String, Long> counts, int n) {
            return counts.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                            .thenComparing(Map.Entry.comparingByKey()))
                    .limit(n)
                    .map(Map.Entry::getKey)
                    .toList();
        }

        List<String> topSelf(int n) {
            return top(self, n);
        }

        List<String> topTotal(int n) {
            return top(total, n);
        }

        String report(int n) {
            StringBuilder out = new StringBuilder();
            out.append(String.format(Locale.ROOT, "%,d execution samples%n", samples));
            if (samples == 0) {
                return out.toString();
            }
            out.append(String.format("%nBy area: self (top frame), self with JDK frames charged to their caller, "
                    + "total (anywhere on the stack)%n"));
            out.append("| area | self % | self, JDK to caller % | total % |\n|---|---:|---:|---:|\n");
            for (String area : AREAS) {
                out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", area, percent(areaSelf(area)),
                        percent(areaCharged(area)), percent(areaTotal(area))));
            }
            out.append(String.format("%nTop %d methods by self samples%n", n));
            out.append("| self % | total % | method |\n|---:|---:|---|\n");
            for (String method : topSelf(n)) {
                out.append(String.format(Locale.ROOT, "| %s | %s | %s |%n", percent(self(method)),
                        percent(total(method)), method));
            }
            out.append(String.format("%nTop %d methods by total samples%n", n));
            out.append("| total % | self % | method |\n|---:|---:|---|\n");
            for (String method : topTotal(n)) {
                out.append(String.format(Locale.ROOT, "| %s | %s | %s |%n", percent(total(method)),
                        percent(self(method)), method));
            }
            out.append(String.format("%nBy thread group%n"));
            out.append("| samples % | threads |\n|---:|---|\n");
            for (String group : top(threads, n)) {
                out.append(String.format(Locale.ROOT, "| %s | %s |%n", percent(thread(group)), group));
            }
            return out.toString();
        }

        private String percent(long count) {
            return String.format(Locale.ROOT, "%.1f", 100.0 * count / samples);
        }
    }
}
