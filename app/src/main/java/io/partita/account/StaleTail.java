package io.partita.account;

import io.partita.node.ClassId;

import java.util.Map;

/**
 * Accounts whose tail holds an entry recorded before a cutoff: the {@link JournalWriter}'s sweep.
 * <b>Threads:</b> as every {@link CutoffPredicate}: evaluated on several threads of the members that hold the
 * entries at once, and never changed, so sharing it is safe.
 */
@ClassId(9)
public final class StaleTail extends CutoffPredicate<String, Account> {

    public StaleTail() {
    }

    StaleTail(long cutoffAt) {
        super(cutoffAt);
    }

    @Override
    public boolean apply(Map.Entry<String, Account> entry) {
        Account account = entry.getValue();
        return account != null && account.tail().length > 0 && Tail.oldestAt(account.tail()) < cutoff();
    }
}
