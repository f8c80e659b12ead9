package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.query.Predicate;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.node.ClassId;
import io.partita.node.Stateless;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The accounts a split-brain merge left below their overdraft limit ({@link Account#conflicts()} above 0), found by a
 * query over every partition. For views; a full scan of the accounts, so not for the request path.
 */
@ClassId(12)
public final class MergeConflicts implements Predicate<String, Account>, Stateless {

    /** One account reported by a merge: where it stands now, and how many merges left it below its limit. */
    @Serdeable
    public record Conflict(String id, long balance, long overdraftLimit, int conflicts) {
    }

    public MergeConflicts() {
    }

    /** The first {@code limit} accounts with a merge conflict, in id order. */
    public static List<Conflict> find(HazelcastInstance hazelcast, int limit) {
        return AccountFeature.accounts(hazelcast).entrySet(new MergeConflicts()).stream()
                .map(entry -> new Conflict(entry.getKey(), entry.getValue().balance(),
                        entry.getValue().overdraftLimit(), entry.getValue().conflicts()))
                .sorted(Comparator.comparing(Conflict::id))
                .limit(limit)
                .toList();
    }

    @Override
    public boolean apply(Map.Entry<String, Account> entry) {
        Account account = entry.getValue();
        return account != null && account.conflicts() > 0;
    }
}
