package io.partita.load;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.partita.support.Blocking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three node processes from the built jar, configured as compose configures them (CP Subsystem with 3 members included,
 * though this load runs in partitioned mode) but with no cluster size and no split-brain protection setting, as the
 * README starts them; the load tool's workload through HTTP, and one fault per test, chained on the same cluster to
 * save start-up time: kill -9 and restart, a rolling restart of all three (each a SIGTERM, a graceful leave, and a
 * restart), a fourth node joining, and all four killed at once and restarted from their data directories. Each fault
 * lands once the load is acknowledged and ends when the node is back (with the CP Subsystem whole again) or has
 * joined; the load then runs until it is acknowledged again, the cluster is safe again, and every acknowledged
 * operation checks out.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CrashLeaveJoinIT {

    /** At most; each test stops the load once it has been acknowledged after its fault. */
    private static final Duration LOAD = Duration.ofMinutes(3);
    /** The fault lands once the load is under way, not at a fixed time that a slow start would eat. */
    private static final int ACKNOWLEDGED_FIRST = 200;
    /** Acknowledged after the fault is over (the node restarted, joined): the cluster serves again. */
    private static final int ACKNOWLEDGED_AFTER = 300;
    private static final String CUT_OFF = "cut off from the majority";
    @AutoClose
    private static ProcessCluster cluster;

    @BeforeAll
    static void startThreeNodes() throws Exception {
        // The shortest missing-member removal Hazelcast allows (the CP session TTL): a crashed CP member is replaced
        // sooner, and each test waits for that before the next fault.
        cluster = new ProcessCluster("crash-leave-join", 3, Map.of(
                "PARTITA_REQUEST_TIMEOUT", FaultScenarios.REQUEST_TIMEOUT.toSeconds() + "s",
                "PARTITA_CP_MISSING_MEMBER_REMOVAL", "10s")).start();
    }

    @Test
    @Order(1)
    void shouldKeepEveryAcknowledgedTransactionWhenANodeIsKilledAndRestarted() throws Exception {
        FaultScenarios.run(cluster, FaultScenarios.options(cluster, "kill9", "partitioned", LOAD),
                ACKNOWLEDGED_FIRST, () -> stopAndRestart(2, "KILL", Duration.ofSeconds(10)), ACKNOWLEDGED_AFTER, 3);
    }

    /**
     * A rolling restart as the README describes one: each node in turn gets SIGTERM (a graceful leave), exits, starts
     * again, and the next is stopped only once the cluster (and its CP Subsystem) is whole again. Every acknowledged
     * transaction checks out afterwards, and meanwhile every node still running is probed with writes four times a
     * second, each on the next account: none may ever answer that it is cut off from the majority, since no node
     * leaves without saying so.
     */
    @Test
    @Order(2)
    void shouldKeepEveryAcknowledgedTransactionAndNeverRefuseAsCutOffDuringARollingRestart() throws Exception {
        List<Probes.Probe> cutOff = new CopyOnWriteArrayList<>();
        FaultScenarios.run(cluster, FaultScenarios.options(cluster, "rolling", "partitioned", LOAD),
                ACKNOWLEDGED_FIRST, workload -> {
                    AtomicBoolean restarting = new AtomicBoolean(true);
                    try (Probes probes = new Probes(workload, FaultScenarios.ATTEMPT_TIMEOUT)) {
                        Thread prober = new Thread(() -> {
                            // Spread over every account: a dozen probes a second on one account for the minutes a
                            // rolling restart takes would fill its journal past what the final check can read.
                            List<String> accounts = workload.accounts();
                            int next = 0;
                            while (restarting.get()) {
                                for (int i = 0; i < 3; i++) {
                                    NodeProcess node = cluster.node(i);
                                    if (node.alive()) {
                                        String account = accounts.get(next++ % accounts.size());
                                        Probes.Probe probe = probes.write(node, account);
                                        if (probe.detail() != null && probe.detail().contains(CUT_OFF)) {
                                            cutOff.add(probe);
                                        }
                                    }
                                }
                                Blocking.run(() -> Thread.sleep(250));
                            }
                        }, "rolling-prober");
                        prober.start();
                        try {
                            for (int i = 0; i < 3; i++) {
                                stopAndRestart(i, "TERM", Duration.ofSeconds(60));
                                cluster.awaitSafe(3);
                            }
                        } finally {
                            restarting.set(false);
                            prober.join();
                        }
                    }
                }, ACKNOWLEDGED_AFTER, 3);
        assertTrue(cutOff.isEmpty(), () -> "answered as cut off during a rolling restart: " + cutOff);
    }

    @Test
    @Order(3)
    void shouldKeepEveryAcknowledgedTransactionWhenANodeJoins() throws Exception {
        FaultScenarios.run(cluster, FaultScenarios.options(cluster, "join", "partitioned", LOAD),
                ACKNOWLEDGED_FIRST, () -> {
                    cluster.join();
                    cluster.awaitSafe(4);
                }, ACKNOWLEDGED_AFTER, 4);
    }

    /**
     * Every node killed at once ({@code kill -9}: power cut to the whole cluster, in flush mode) and started again with
     * its data directory: every transaction acknowledged before the kill is still there exactly once, a retried txId is
     * answered from its first outcome, and transfers cut between their steps are finished by recovery.
     */
    @Test
    @Order(4)
    void shouldKeepEveryAcknowledgedTransactionWhenEveryNodeIsKilledAtOnce() throws Exception {
        int size = cluster.size();
        FaultScenarios.run(cluster, FaultScenarios.options(cluster, "killall", "partitioned", LOAD),
                ACKNOWLEDGED_FIRST, () -> {
                    List<NodeProcess> nodes = new ArrayList<>();
                    for (int i = 0; i < size; i++) {
                        nodes.add(cluster.node(i));
                    }
                    for (NodeProcess node : nodes) {
                        node.signal("KILL");
                    }
                    for (NodeProcess node : nodes) {
                        assertTrue(node.awaitExit(Duration.ofSeconds(10)), "the node dies on SIGKILL");
                    }
                    for (int i = 0; i < size; i++) {
                        cluster.restart(i);
                    }
                    cluster.awaitSafe(size);
                }, ACKNOWLEDGED_AFTER, size);
    }

    /**
     * Sends {@code signal} to node {@code index} and waits for it to exit and for the two others to be safe, then
     * restarts it and waits until the CP Subsystem is whole again.
     */
    private static void stopAndRestart(int index, String signal, Duration exit) throws Exception {
        NodeProcess node = cluster.node(index);
        node.signal(signal);
        assertTrue(node.awaitExit(exit), "the node stops on SIG" + signal);
        cluster.awaitSafe(2);
        cluster.restart(index);
        cluster.awaitCpWhole();
    }
}
