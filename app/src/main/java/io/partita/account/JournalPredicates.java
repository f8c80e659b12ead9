package io.partita.account;

import com.hazelcast.query.Predicate;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The queries the ledger runs over its maps, each a small serializable predicate: the journal has no index (an index
 * would cost more per entry than the entry's own value), so these scan, one partition at a time where they can.
 */
public final class JournalPredicates {

    private JournalPredicates() {
    }

    /** The journal entries of {@code accountIds}; run it inside their partition ({@code partitionPredicate}). */
    public static Predicate<JournalKey, JournalRecord> ofAccounts(Collection<String> accountIds) {
        return new OfAccounts(new HashSet<>(accountIds));
    }

    /** Journal entries of the given accounts: a listing, or an audit's slice, run inside the accounts' partition. */
    @ClassId(7)
    public static final class OfAccounts implements Predicate<JournalKey, JournalRecord>, FieldList {

        private Set<String> accountIds;

        public OfAccounts() {
        }

        OfAccounts(Set<String> accountIds) {
            this.accountIds = accountIds;
        }

        @Override
        public boolean apply(Map.Entry<JournalKey, JournalRecord> entry) {
            return accountIds.contains(entry.getKey().accountId());
        }

        @Override
        public void fields(Fields fields) throws IOException {
            accountIds = fields.value(accountIds, (out, ids) -> out.writeStringArray(ids.toArray(new String[0])),
                    in -> new HashSet<>(Set.of(in.readStringArray())));
        }
    }
}
