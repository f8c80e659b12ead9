package io.partita.node;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.server.ServerConnection;
import com.hazelcast.internal.server.ServerConnectionManager;
import com.hazelcast.internal.server.tcp.TcpServerConnection;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Closes a connection this member opened to an address outside the cluster when the peer has not sent a byte within
 * {@link #GRACE_MILLIS}. A connection to a member of the cluster is never touched. Its own timer thread
 * ("partita-silent-peers") runs every check, one at a time; the connections are Hazelcast's, read through its
 * connection manager and closed with their own {@code close}.
 */
@Context
public class SilentPeers {

    /*
     * Why
     *
     * In Hazelcast 5.4 a new outgoing member connection waits for the peer's protocol header with its handshake frame
     * already queued, and while it waits its outbound pipeline reschedules itself at once, round after round: the IO
     * thread that owns it never gets back to its selector, so it spins on a core and every other connection it serves
     * starves. A peer that accepts TCP but never answers does exactly that, and a frozen member (SIGSTOP, a long GC
     * pause, a suspended VM) is such a peer: its kernel still completes the TCP handshake. The others keep sending to
     * it after they removed it (Raft heartbeats to a CP member not yet auto-removed, the split-brain search of the TCP
     * member list), and PauseIT saw the two live members stop hearing each other a second after removing the frozen
     * one, suspect each other at the heartbeat timeout, and split into clusters of one that lost acknowledged writes at
     * the merge.
     *
     * Why closing is enough
     *
     * Closing the connection drains its queue and ends the loop; the next send opens a new one, so one spin lasts at
     * most about GRACE_MILLIS plus PERIOD_MILLIS, far below the heartbeat timeout. A connection to a member of the
     * cluster is never touched (a slow member is the failure detector's business), and a live peer outside it (another
     * cluster the split-brain search asks about merging) answers in milliseconds.
     */

    static final long PERIOD_MILLIS = 100;
    static final long GRACE_MILLIS = 500;
    static final String CLOSE_REASON = "the peer has not answered; it is not a member (frozen or not Hazelcast)";

    private static final Logger LOG = LoggerFactory.getLogger(SilentPeers.class);

    private final HazelcastInstance hazelcast;
    private final ServerConnectionManager connections;
    /** When each unanswered outgoing connection was first seen; only the checking thread touches it. */
    private Map<ServerConnection, Long> unanswered = new HashMap<>();
    /**
     * When a close was last logged per peer: a frozen peer is connected to again every second or so. Only the checking
     * thread touches it.
     */
    private final Map<Address, Long> logged = new HashMap<>();
    private final ScheduledExecutorService checker = Timers.single("partita-silent-peers");

    SilentPeers(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        this.connections = Internals.memberConnections(hazelcast);
        checker.scheduleWithFixedDelay(this::check, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    void check() {
        try {
            Set<Address> members = hazelcast.getCluster().getMembers().stream().map(Member::getAddress)
                    .collect(Collectors.toSet());
            long now = System.nanoTime();
            Map<ServerConnection, Long> stillWaiting = new HashMap<>();
            for (ServerConnection connection : connections.getConnections()) {
                if (!awaitsAnswer(connection) || members.contains(connection.getRemoteAddress())) {
                    continue;
                }
                long since = unanswered.getOrDefault(connection, now);
                if (now - since >= TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS)) {
                    logClose(connection.getRemoteAddress(), now);
                    connection.close(CLOSE_REASON, null);
                } else {
                    stillWaiting.put(connection, since);
                }
            }
            unanswered = stillWaiting;
        } catch (RuntimeException e) {
            // A member shutting down (not active any more); the next round looks again.
            LOG.debug("Checking connections to silent peers failed", e);
        }
    }

    private void logClose(Address peer, long now) {
        Long last = logged.get(peer);
        if (last == null || now - last >= TimeUnit.MINUTES.toNanos(1)) {
            logged.put(peer, now);
            LOG.info("Closing connections to {} that get no answer within {} ms: not a member, and a frozen process "
                    + "accepts TCP and never answers (logged once a minute)", peer, GRACE_MILLIS);
        }
    }

    /** An outgoing connection, still open, on which the peer has not sent a byte. */
    private static boolean awaitsAnswer(ServerConnection connection) {
        return connection instanceof TcpServerConnection tcp && !tcp.isAcceptorSide() && tcp.isAlive()
                && tcp.lastReadTimeMillis() < 0;
    }

    @PreDestroy
    void stop() {
        checker.shutdownNow();
    }
}
