package io.partita.bench.peers;

import io.partita.client.PartitaClient;
import io.partita.client.TxType;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which HTTP client lets one node be the bottleneck? The same closed loop (16 threads, one
 * {@code POST /accounts/{id}/transactions} each at a time, a new txId, a random account) through each client in turn
 * against one node process, started as the peers tool starts it; per client: transactions per second, the node's
 * cores and CPU per call, this JVM's cores and CPU per call. Every answer must be 200 or 422, or the run fails.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar http-clients [--threads 16] [--seconds 15] [--warmup 5] [--rounds 2]
 *      [--accounts 10000] [--partita-jar app/target/partita.jar]
 * </pre>
 *
 * <p>The clients: {@code jdk-default} is {@code HttpClient.newHttpClient()} (HTTP/2 by default: on a cleartext URL it
 * sends {@code Upgrade: h2c} with every request, which the node never accepts); {@code jdk-http1} is the JDK client
 * forced to HTTP/1.1 with 4 executor threads (what the peers tool used); {@code partita-client} is Partita's client.
 * Rounds alternate the clients so that a busy machine weighs on each alike. Expect the JDK client to spend more CPU per
 * call than the node does; the figures and the machine are in benchmarks/results/http-client-*.txt.
 */
public final class HttpClients {

    private HttpClients() {
    }

    /** One client's way to post a transaction and get its status. */
    private interface Poster extends AutoCloseable {
        int post(String account, String type, long amount, String txId) throws Exception;

        @Override
        default void close() {
        }
    }

    public static void main(String[] args) throws Exception {
        int threads = 16;
        int seconds = 15;
        int warmup = 5;
        int rounds = 2;
        int accounts = 10_000;
        Path jar = Path.of("app/target/partita.jar");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--accounts" -> accounts = Integer.parseInt(args[i + 1]);
                case "--partita-jar" -> jar = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        try (NodeProcesses node = NodeProcesses.start(1, jar, Path.of("target/http-clients-logs"))) {
            URI url = node.urls().get(0);
            ExecutorService openers = Executors.newFixedThreadPool(16);
            try (PartitaClient opener = PartitaClient.builder(url.toString()).build()) {
                List<CompletableFuture<?>> opened = new ArrayList<>();
                for (int i = 0; i < accounts; i++) {
                    String id = "hc-" + i;
                    opened.add(CompletableFuture.runAsync(
                            () -> opener.openAccount(id, 1_000_000_000L, 1_000_000_000L), openers));
                }
                opened.forEach(CompletableFuture::join);
            } finally {
                openers.shutdownNow();
            }
            System.out.printf(Locale.ROOT, "%d cores, %s %s; one node process, %d accounts, %d threads%n",
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                    System.getProperty("java.version"), accounts, threads);
            System.out.println("client          tx/s   node cores  node us/call  client cores  client us/call");
            for (int round = 0; round < rounds; round++) {
                for (String name : List.of("jdk-default", "jdk-http1", "partita-client")) {
                    try (Poster poster = poster(name, url)) {
                        measure(name, poster, node.pids().get(0), threads, warmup, seconds, accounts);
                    }
                }
            }
        }
        System.exit(0);
    }

    private static Poster poster(String name, URI url) {
        switch (name) {
            case "partita-client" -> {
                PartitaClient client = PartitaClient.builder(url.toString()).build();
                return new Poster() {
                    @Override
                    public int post(String account, String type, long amount, String txId) {
                        return client.post(account, TxType.valueOf(type), amount, txId).applied() ? 200 : 422;
                    }

                    @Override
                    public void close() {
                        client.close();
                    }
                };
            }
            case "jdk-default", "jdk-http1" -> {
                ExecutorService threads = Executors.newFixedThreadPool(4);
                HttpClient http = name.equals("jdk-default") ? HttpClient.newBuilder().executor(threads).build()
                        : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(threads).build();
                return new Poster() {
                    @Override
                    public int post(String account, String type, long amount, String txId) throws Exception {
                        String body = "{\"txId\":\"" + txId + "\",\"type\":\"" + type + "\",\"amount\":" + amount + "}";
                        return http.send(HttpRequest.newBuilder(url.resolve("/accounts/" + account + "/transactions"))
                                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode();
                    }

                    @Override
                    public void close() {
                        threads.shutdownNow();
                    }
                };
            }
            default -> throw new IllegalArgumentException(name);
        }
    }

    private static void measure(String name, Poster poster, long nodePid, int threads, int warmup, int seconds,
                                int accounts) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong done = new AtomicLong();
        AtomicLong bad = new AtomicLong();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread caller = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        int status = poster.post("hc-" + random.nextInt(accounts),
                                random.nextBoolean() ? "DEBIT" : "CREDIT", 1, PartitaClient.newTxId());
                        if (status != 200 && status != 422) {
                            bad.incrementAndGet();
                        }
                        done.incrementAndGet();
                    }
                } catch (Exception e) {
                    bad.incrementAndGet();
                    e.printStackTrace();
                }
            }, "http-clients-" + t);
            caller.start();
            callers.add(caller);
        }
        Thread.sleep(warmup * 1000L);
        long nodeBefore = Cpu.process(nodePid);
        long selfBefore = Cpu.self();
        long countBefore = done.get();
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long nodeAfter = Cpu.process(nodePid);
        long selfAfter = Cpu.self();
        long count = done.get() - countBefore;
        double window = (System.nanoTime() - start) / 1e9;
        stop.set(true);
        for (Thread caller : callers) {
            caller.join();
        }
        if (bad.get() > 0) {
            throw new IllegalStateException(name + ": " + bad.get() + " calls were not answered 200 or 422");
        }
        double tps = count / window;
        double nodeCores = (nodeAfter - nodeBefore) / 1e9 / window;
        double clientCores = (selfAfter - selfBefore) / 1e9 / window;
        System.out.printf(Locale.ROOT, "%-14s %7.0f %11.2f %13.0f %13.2f %15.0f%n", name, tps, nodeCores,
                nodeCores / tps * 1e6, clientCores, clientCores / tps * 1e6);
    }
}
