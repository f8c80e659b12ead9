package io.partita.account;

import io.partita.node.ClassId;

import java.util.Map;

/**
 * Accounts whose tail holds an entry recorded before a cutoff: the {@link JournalWriter}'s sweep.
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
