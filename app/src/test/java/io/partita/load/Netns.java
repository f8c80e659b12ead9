package io.partita.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * A network of Linux network namespaces, one per node, built with iproute2 (root only). Each node has two links:
 * <ul>
 *   <li>the member link ({@code eth0}): a veth whose other end is a port of bridge A, address {@code 10.N.0.(11+i)}.
 *   Members talk to each other only here.</li>
 *   <li>the client link ({@code eth1}): a point-to-point veth to the test's own namespace, {@code 10.N.1.(4i+2)}, on
 *   which the test reaches the node's HTTP port whatever happens to the bridges.</li>
 * </ul>
 * {@link #cut} moves the bridge ends of some nodes to bridge B: no link goes down and nothing is refused, packets
 * between the two sides simply stop arriving, as in a switch failure (this kernel has no netem to drop them
 * otherwise). {@link #heal} moves them back. A bridge partition ({@link #bridge}) gives one node a port on both
 * bridges, so it sees both sides while they do not see each other.
 *
 * <p>Names carry a random tag, so a run never collides with another's leftovers; {@link #close} removes everything
 * this instance made. Not thread-safe: one test thread drives it.
 */
final class Netns implements AutoCloseable {

    private final String tag;
    private final int net;
    private final int size;
    private final List<String> made = new ArrayList<>();
    private boolean bridged;

    /** Whether this machine can run the test: root, and iproute2 with network namespaces. */
    static boolean available() {
        try {
            return "0".equals(output("id", "-u").trim()) && run(List.of("ip", "netns", "list")) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    Netns(int size) throws IOException {
        this.size = size;
        Random random = new Random();
        this.tag = Integer.toHexString(0x1000 + random.nextInt(0xefff));
        this.net = freeNet(random);
        ip("link", "add", bridge('a'), "type", "bridge");
        made.add(bridge('a'));
        ip("link", "add", bridge('b'), "type", "bridge");
        made.add(bridge('b'));
        ip("link", "set", bridge('a'), "up");
        ip("link", "set", bridge('b'), "up");
        for (int i = 0; i < size; i++) {
            String ns = namespace(i);
            ip("netns", "add", ns);
            made.add("netns:" + ns);
            ip("-n", ns, "link", "set", "lo", "up");
            // Member link: eth0 in the namespace, its peer a port of bridge A.
            ip("link", "add", port(i), "type", "veth", "peer", "name", "pt" + tag + "m" + i);
            ip("link", "set", "pt" + tag + "m" + i, "netns", ns, "name", "eth0");
            ip("-n", ns, "addr", "add", memberAddress(i) + "/24", "dev", "eth0");
            ip("-n", ns, "link", "set", "eth0", "up");
            ip("link", "set", port(i), "master", bridge('a'));
            ip("link", "set", port(i), "up");
            // Client link: eth1 in the namespace, its peer in the test's namespace with the other address of a /30.
            String host = "pt" + tag + "h" + i;
            ip("link", "add", host, "type", "veth", "peer", "name", "pt" + tag + "k" + i);
            ip("link", "set", "pt" + tag + "k" + i, "netns", ns, "name", "eth1");
            ip("-n", ns, "addr", "add", "10." + net + ".1." + (4 * i + 2) + "/30", "dev", "eth1");
            ip("-n", ns, "link", "set", "eth1", "up");
            ip("addr", "add", "10." + net + ".1." + (4 * i + 1) + "/30", "dev", host);
            ip("link", "set", host, "up");
        }
    }

    /** The address node {@code i} binds its member to, on bridge A (or B once cut). */
    String memberAddress(int i) {
        return "10." + net + ".0." + (11 + i);
    }

    /** The address the test reaches node {@code i}'s HTTP port on. */
    String clientAddress(int i) {
        return "10." + net + ".1." + (4 * i + 2);
    }

    /** The command prefix that runs a process inside node {@code i}'s namespace (it execs: the pid is the process). */
    List<String> launcher(int i) {
        return List.of("ip", "netns", "exec", namespace(i));
    }

    /** Puts {@code nodes} on bridge B: from now on they reach each other, and no one on bridge A. */
    void cut(Collection<Integer> nodes) throws IOException {
        for (int i : nodes) {
            ip("link", "set", port(i), "nomaster");
            ip("link", "set", port(i), "master", bridge('b'));
        }
    }

    /**
     * Gives node {@code middle} a second member port, on bridge B, with the same address: the nodes on either bridge
     * reach it (each side learns its address on its own bridge), but not each other; it does not forward between
     * them (a new namespace has forwarding off). Call after {@link #cut} put the other side on B.
     */
    void bridge(int middle, Collection<Integer> otherSide) throws IOException {
        String ns = namespace(middle);
        String second = "pt" + tag + "x" + middle;
        ip("link", "add", second, "type", "veth", "peer", "name", "pt" + tag + "y" + middle);
        ip("link", "set", "pt" + tag + "y" + middle, "netns", ns, "name", "eth2");
        // The same MAC as eth0 (the two are on different bridges): one host on two segments, so the other side's ARP
        // entries for it stay right after the heal instead of pointing at a port that is gone.
        String mac = output("ip", "-n", ns, "-o", "link", "show", "eth0").replaceAll("(?s).*link/ether ([0-9a-f:]+).*",
                "$1").trim();
        ip("-n", ns, "link", "set", "eth2", "address", mac);
        // The address without a prefix route: replies to the other side leave by eth2 through host routes only.
        ip("-n", ns, "addr", "add", memberAddress(middle) + "/32", "dev", "eth2");
        ip("-n", ns, "link", "set", "eth2", "up");
        for (int i : otherSide) {
            ip("-n", ns, "route", "add", memberAddress(i) + "/32", "dev", "eth2");
        }
        ip("link", "set", second, "master", bridge('b'));
        ip("link", "set", second, "up");
        bridged = true;
    }

    /** Every node back on bridge A, and a bridge partition's second port gone. */
    void heal() throws IOException {
        for (int i = 0; i < size; i++) {
            ip("link", "set", port(i), "nomaster");
            ip("link", "set", port(i), "master", bridge('a'));
        }
        if (bridged) {
            for (int i = 0; i < size; i++) {
                if (run(List.of("ip", "link", "show", "pt" + tag + "x" + i)) == 0) {
                    ip("link", "del", "pt" + tag + "x" + i);
                }
            }
            bridged = false;
        }
    }

    @Override
    public void close() {
        for (int i = made.size() - 1; i >= 0; i--) {
            String item = made.get(i);
            try {
                // Deleting a namespace deletes the veths in it, and with them their peers out here.
                run(item.startsWith("netns:") ? List.of("ip", "netns", "del", item.substring(6))
                        : List.of("ip", "link", "del", item));
            } catch (IOException e) {
                // Best effort: the rest is still removed.
            }
        }
        made.clear();
    }

    @Override
    public String toString() {
        return "netns " + tag + " (10." + net + ".0.0/24)";
    }

    private String namespace(int i) {
        return "pt" + tag + "n" + i;
    }

    private String port(int i) {
        return "pt" + tag + "p" + i;
    }

    private String bridge(char which) {
        return "pt" + tag + "b" + which;
    }

    /** A 10.N.0.0/16 that no address or route of this machine uses. */
    private static int freeNet(Random random) throws IOException {
        String used = output("ip", "-4", "route", "show", "table", "all") + output("ip", "-4", "addr");
        for (int tries = 0; tries < 100; tries++) {
            int candidate = 64 + random.nextInt(128);
            if (!used.contains("10." + candidate + ".")) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free 10.N.0.0/16 for the test's namespaces");
    }

    private static void ip(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!waitFor(process) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + said.trim());
        }
    }

    private static int run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return waitFor(process) ? process.exitValue() : -1;
    }

    private static String output(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        waitFor(process);
        return said;
    }

    private static boolean waitFor(Process process) throws IOException {
        try {
            return process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
