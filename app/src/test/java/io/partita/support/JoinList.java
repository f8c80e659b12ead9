package io.partita.support;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The cluster name and TCP join list that the members of one test cluster share: a free port is reserved for each
 * member before it starts, and each is told the addresses of every member reserved so far, its own included.
 *
 * <p>Threads: members may be started, and so read the list, on several threads while another member is added.
 */
final class JoinList {

    private final String clusterName;
    private final List<Integer> ports = new CopyOnWriteArrayList<>();

    JoinList() {
        this("test-" + UUID.randomUUID());
    }

    /** Under a name of the caller's: a cluster started again from its members' data directories keeps its name. */
    JoinList(String clusterName) {
        this.clusterName = clusterName;
    }

    String clusterName() {
        return clusterName;
    }

    /** Reserves a free port for one more member. */
    int reserve() {
        int port = Ports.free();
        ports.add(port);
        return port;
    }

    /** Reserves free ports for {@code count} more members, before any of them starts. */
    List<Integer> reserve(int count) {
        List<Integer> reserved = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            reserved.add(reserve());
        }
        return reserved;
    }

    /** {@code 127.0.0.1:port} of every member, in the order they were reserved. */
    List<String> addresses() {
        return ports.stream().map(port -> "127.0.0.1:" + port).toList();
    }
}
