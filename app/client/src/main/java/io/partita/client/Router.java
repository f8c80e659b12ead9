package io.partita.client;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where to send a call: the owner of the account's partition, from the cluster's partition table, or else any node
 * (every node forwards to the owner, so a stale or missing table costs a hop, never a wrong answer).
 *
 * <p>The table is {@code GET /cluster} (each member's address and {@code httpUrl}) joined with
 * {@code GET /cluster/partitions} (each partition's owner address). It is read on first use, again once it is older
 * than the refresh interval, and at once when a node fails a call or an answer names another owner (a migration or a
 * membership change). Refreshes run on the client's executor, one at a time; callers never wait for one after the
 * first.
 *
 * <p>Threads: any caller. The table is an immutable snapshot behind a volatile field; suspects are a concurrent map.
 */
final class Router {

    /** The nodes' answers the router reads; the client's transport without retries. */
    interface Fetch {
        Http1Transport.Answer get(URI node, String path) throws IOException;
    }

    /** One snapshot of the table; {@code owners[p]} is null when the owner's httpUrl is unknown. */
    record Table(int partitionCount, URI[] owners, Map<String, URI> urlByAddress, List<URI> nodes, long readAt) {
    }

    private static final long SUSPECT_NANOS = 2_000_000_000L;

    private final List<URI> seeds;
    private final boolean partitionAware;
    private final long refreshNanos;
    private final Fetch fetch;
    private final Executor executor;
    private final ClientListener listener;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicInteger roundRobin = new AtomicInteger();
    private final Map<URI, Long> suspectUntil = new ConcurrentHashMap<>();
    private volatile Table table;

    Router(List<URI> seeds, boolean partitionAware, long refreshNanos, Fetch fetch, Executor executor,
           ClientListener listener) {
        this.seeds = List.copyOf(seeds);
        this.partitionAware = partitionAware;
        this.refreshNanos = refreshNanos;
        this.fetch = fetch;
        this.executor = executor;
        this.listener = listener;
    }

    boolean partitionAware() {
        return partitionAware;
    }

    /** The owner of {@code key}'s partition when known and not suspect, else any node. */
    URI route(String key) {
        Table current = table;
        if (!partitionAware) {
            return any();
        }
        if (current == null) {
            refreshNow();
            current = table;
        } else if (System.nanoTime() - current.readAt() > refreshNanos) {
            refreshSoon();
        }
        if (current != null) {
            URI owner = current.owners()[PartitionHash.partitionOf(key, current.partitionCount())];
            if (owner != null && !suspect(owner)) {
                return owner;
            }
        }
        return any();
    }

    /** A node for a call that has no key (or whose owner is unknown): the known nodes in turn, suspects last. */
    URI any() {
        Table current = table;
        List<URI> nodes = current == null || current.nodes().isEmpty() ? seeds : current.nodes();
        int start = Math.floorMod(roundRobin.getAndIncrement(), nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            URI node = nodes.get((start + i) % nodes.size());
            if (!suspect(node)) {
                return node;
            }
        }
        return nodes.get(start);
    }

    /** {@code node} failed a call: avoid it for a moment and read the table again. */
    void failed(URI node) {
        suspectUntil.put(node, System.nanoTime() + SUSPECT_NANOS);
        refreshSoon();
    }

    /** A node said {@code key}'s partition is owned by {@code ownerAddress}: refresh if the table disagrees. */
    void observedOwner(String key, String ownerAddress) {
        Table current = table;
        if (!partitionAware || current == null || ownerAddress == null) {
            return;
        }
        URI expected = current.owners()[PartitionHash.partitionOf(key, current.partitionCount())];
        URI actual = current.urlByAddress().get(ownerAddress);
        if (actual == null || !actual.equals(expected)) {
            refreshSoon();
        }
    }

    Table table() {
        return table;
    }

    private boolean suspect(URI node) {
        Long until = suspectUntil.get(node);
        if (until == null) {
            return false;
        }
        if (System.nanoTime() > until) {
            suspectUntil.remove(node, until);
            return false;
        }
        return true;
    }

    void refreshSoon() {
        if (partitionAware && refreshing.compareAndSet(false, true)) {
            try {
                executor.execute(() -> {
                    try {
                        read();
                    } finally {
                        refreshing.set(false);
                    }
                });
            } catch (RuntimeException rejected) {
                refreshing.set(false);
            }
        }
    }

    /** Reads the table now (the first call waits for it); a failure leaves calls going to any node. */
    void refreshNow() {
        if (refreshing.compareAndSet(false, true)) {
            try {
                read();
            } finally {
                refreshing.set(false);
            }
        }
    }

    private void read() {
        long start = System.nanoTime();
        List<URI> candidates = new ArrayList<>();
        Table current = table;
        if (current != null) {
            candidates.addAll(current.nodes());
        }
        candidates.addAll(seeds);
        for (URI node : candidates) {
            if (suspect(node)) {
                continue;
            }
            try {
                Table next = read(node);
                if (next != null) {
                    table = next;
                    listener.onRefresh(node, true, System.nanoTime() - start);
                    return;
                }
            } catch (IOException | RuntimeException e) {
                // This node cannot say; the next one may.
            }
        }
        listener.onRefresh(null, false, System.nanoTime() - start);
    }

    @SuppressWarnings("unchecked")
    private Table read(URI node) throws IOException {
        Http1Transport.Answer cluster = fetch.get(node, "/cluster");
        Http1Transport.Answer partitions = fetch.get(node, "/cluster/partitions");
        if (cluster.status() != 200 || partitions.status() != 200) {
            return null;
        }
        Map<String, Object> view = Json.object(cluster.body());
        int count = ((Number) view.get("partitionCount")).intValue();
        Map<String, URI> urlByAddress = new HashMap<>();
        List<URI> nodes = new ArrayList<>();
        for (Object member : (List<Object>) view.get("members")) {
            Map<String, Object> m = (Map<String, Object>) member;
            Object url = m.get("httpUrl");
            if (url instanceof String text && !text.isBlank()) {
                URI uri = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
                urlByAddress.put((String) m.get("address"), uri);
                nodes.add(uri);
            }
        }
        URI[] owners = new URI[count];
        for (Object p : (List<Object>) Json.parse(partitions.body())) {
            Map<String, Object> partition = (Map<String, Object>) p;
            int id = ((Number) partition.get("id")).intValue();
            Object owner = partition.get("owner");
            if (id >= 0 && id < count && owner instanceof String address) {
                owners[id] = urlByAddress.get(address);
            }
        }
        return new Table(count, owners, Map.copyOf(urlByAddress), List.copyOf(nodes), System.nanoTime());
    }
}
