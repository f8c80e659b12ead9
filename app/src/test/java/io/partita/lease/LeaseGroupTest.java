package io.partita.lease;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The group's transitions as plain functions, driven by 10 simulated workers and a clock the test moves: joins,
 * graceful leaves and crashes (a worker that stops renewing). After every step the test checks what a user of
 * leases relies on.
 */
class LeaseGroupTest {

    private static final long LEASE = 10_000;

    private long now = 1_700_000_000_000L;
    /** What each worker believes it holds: shard to token, from its last renewal. */
    private final Map<String, Map<Integer, Long>> beliefs = new HashMap<>();
    /** The highest token any worker has been handed, per shard. */
    private final long[] lastToken = new long[64];

    @Test
    void shouldKeepOneCurrentHolderPerShardBalanceAndMonotonicTokensThroughJoinsLeavesAndCrashes() {
        LeaseGroup group = new LeaseGroup(64, LEASE);
        Random random = new Random(16);
        List<String> alive = new ArrayList<>();
        List<String> crashed = new ArrayList<>();
        for (int step = 0; step < 2_000; step++) {
            int op = random.nextInt(10);
            if (op < 2 && alive.size() + crashed.size() < 10) {
                join(group, alive, "req-" + step);
            } else if (op == 2 && !alive.isEmpty()) {
                String leaving = alive.remove(random.nextInt(alive.size()));
                assertTrue(group.leave(leaving, now));
                beliefs.remove(leaving);
            } else if (op == 3 && !alive.isEmpty()) {
                crashed.add(alive.remove(random.nextInt(alive.size())));
            } else {
                now += random.nextInt((int) LEASE / 4);
                for (String w : alive) {
                    renew(group, w);
                }
            }
            crashed.removeIf(w -> !group.workers().containsKey(w));
            beliefs.keySet().removeIf(w -> !group.workers().containsKey(w));
            assertInvariants(group);
        }
        LeaseGroup.Changes seen = group.drainChanges();
        assertTrue(seen.moves() > 0 && seen.expiries() > 0, "the run moved shards and expired workers: " + seen);
    }

    @Test
    void shouldMoveNoMoreThanTheMinimumPlusOneWhenAWorkerJoins() {
        for (int shards : new int[] {1, 7, 10, 64, 100, 10_000}) {
            LeaseGroup group = new LeaseGroup(shards, LEASE);
            for (int n = 1; n <= 10; n++) {
                int[] before = assignees(group, shards);
                Map<String, Integer> counts = counts(before);
                group.join("r" + n, now);
                int[] after = assignees(group, shards);
                int moved = 0;
                for (int s = 0; s < shards; s++) {
                    if (before[s] != -1 && before[s] != after[s]) {
                        moved++;
                    }
                }
                int floor = shards / n;
                int ceil = (shards + n - 1) / n;
                int surplus = counts.values().stream().mapToInt(c -> Math.max(0, c - ceil)).sum();
                int deficit = floor + counts.values().stream().mapToInt(c -> Math.max(0, floor - c)).sum();
                int minimum = Math.max(surplus, deficit);
                assertTrue(moved <= minimum + 1, shards + " shards, join " + n + ": moved " + moved);
                assertBalanced(group);
            }
        }
    }

    @Test
    void shouldReturnTheSameWorkerWhenAJoinIsRetried() {
        LeaseGroup group = new LeaseGroup(8, LEASE);
        LeaseGroup.Worker first = group.join("req-1", now);
        LeaseGroup.Worker retried = group.join("req-1", now + 5);
        assertEquals(first.id(), retried.id());
        assertEquals(1, group.workers().size());
    }

    @Test
    void shouldHandAShardToItsNewOwnerOnlyAfterTheOldOwnerRenews() {
        LeaseGroup group = new LeaseGroup(2, LEASE);
        String a = group.join("a", now).id();
        assertEquals(2, group.renew(a, now).size());
        String b = group.join("b", now).id();
        assertTrue(group.renew(b, now).isEmpty(), "b gets nothing before a has seen its shard go");
        assertEquals(1, group.renew(a, now).size());
        List<LeaseGroup.Grant> bHolds = group.renew(b, now);
        assertEquals(1, bHolds.size());
        assertEquals(2, bHolds.get(0).token(), "the second grant of the shard");
    }

    @Test
    void shouldGiveACrashedWorkersShardsToTheOthersOnlyAfterItsLease() {
        LeaseGroup group = new LeaseGroup(4, LEASE);
        String a = group.join("a", now).id();
        String b = group.join("b", now).id();
        group.renew(a, now);
        group.renew(b, now);
        now += LEASE - 1;
        group.renew(b, now);
        assertEquals(2, group.renew(b, now).size(), "a's lease has not passed yet");
        now += 1;
        assertEquals(4, group.renew(b, now).size());
        assertNull(group.renew(a, now), "a must join again");
        assertEquals(1, group.drainChanges().expiries());
    }

    @Test
    void shouldExpireEveryWorkerOfADeadGroupOnASweep() {
        LeaseGroup group = new LeaseGroup(4, LEASE);
        String a = group.join("a", now).id();
        group.renew(a, now);
        assertEquals(1, group.expire(now + LEASE));
        assertTrue(group.workers().isEmpty());
        assertFalse(group.isCurrent(0, 1), "nobody holds shard 0 any more");
    }

    private void join(LeaseGroup group, List<String> alive, String requestId) {
        String id = group.join(requestId, now).id();
        alive.add(id);
        renew(group, id);
    }

    private void renew(LeaseGroup group, String worker) {
        List<LeaseGroup.Grant> held = group.renew(worker, now);
        assertNotNull(held, worker + " was alive and renewing");
        Map<Integer, Long> before = beliefs.getOrDefault(worker, Map.of());
        Map<Integer, Long> belief = new HashMap<>();
        for (LeaseGroup.Grant g : held) {
            if (!before.containsKey(g.shard())) {
                assertTrue(g.token() > lastToken[g.shard()], "a new grant of shard " + g.shard() + " reused a token");
                lastToken[g.shard()] = g.token();
            }
            belief.put(g.shard(), g.token());
        }
        beliefs.put(worker, belief);
    }

    private void assertInvariants(LeaseGroup group) {
        for (int s = 0; s < group.shards(); s++) {
            int holders = 0;
            int current = 0;
            for (Map<Integer, Long> belief : beliefs.values()) {
                Long t = belief.get(s);
                holders += t == null ? 0 : 1;
                current += t != null && group.isCurrent(s, t) ? 1 : 0;
            }
            assertTrue(holders <= 1, "shard " + s + " is held by " + holders + " live workers");
            assertTrue(current <= 1, "shard " + s + " has " + current + " live holders with a current token");
            assertTrue(group.token(s) >= lastToken[s], "token of shard " + s + " went back");
        }
        assertBalanced(group);
    }

    private static void assertBalanced(LeaseGroup group) {
        if (group.workers().isEmpty()) {
            return;
        }
        Map<String, Integer> counts = new HashMap<>();
        group.workers().keySet().forEach(w -> counts.put(w, 0));
        for (int s = 0; s < group.shards(); s++) {
            assertNotNull(group.assignee(s), "shard " + s + " is assigned while workers exist");
            counts.merge(group.assignee(s), 1, Integer::sum);
        }
        int max = counts.values().stream().mapToInt(i -> i).max().orElseThrow();
        int min = counts.values().stream().mapToInt(i -> i).min().orElseThrow();
        assertTrue(max - min <= 1, "counts " + counts);
    }

    private static int[] assignees(LeaseGroup group, int shards) {
        int[] result = new int[shards];
        for (int s = 0; s < shards; s++) {
            String a = group.assignee(s);
            result[s] = a == null ? -1 : Integer.parseInt(a.substring(1));
        }
        return result;
    }

    private static Map<String, Integer> counts(int[] assignees) {
        Map<String, Integer> counts = new HashMap<>();
        for (int a : assignees) {
            if (a != -1) {
                counts.merge("w" + a, 1, Integer::sum);
            }
        }
        return counts;
    }
}
