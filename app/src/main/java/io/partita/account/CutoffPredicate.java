package io.partita.account;

import com.hazelcast.query.Predicate;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;

/**
 * A predicate of the journal writer's that carries one time, a cutoff in epoch milliseconds, and nothing else; each
 * subclass says what is older than it. Built with the time, so that members holding the entries agree.
 *
 * @param <K> the map's key
 * @param <V> the map's value
 */
abstract class CutoffPredicate<K, V> implements Predicate<K, V>, FieldList {

    private long cutoff;

    CutoffPredicate() {
    }

    CutoffPredicate(long cutoff) {
        this.cutoff = cutoff;
    }

    final long cutoff() {
        return cutoff;
    }

    @Override
    public final void fields(Fields fields) throws IOException {
        cutoff = fields.int64(cutoff);
    }
}
