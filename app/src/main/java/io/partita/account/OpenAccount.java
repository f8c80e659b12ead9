package io.partita.account;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.Map;

/**
 * Stores a new account unless the id is taken, or unless its partition lost its data: an id that may exist on the
 * other side of a split, or in data that a merge will bring back, is never opened again. Answers a {@link Result} by
 * name.
 * Runs on the partition thread of the account's owner, and may run again after a retry or a migration:
 * a second run finds the account the first one stored and answers {@code EXISTS}, so a client whose first attempt
 * landed hears 409. Deterministic: the account it stores was built by the caller. Its backup is an
 * {@link AccountBackup} on each backup replica.
 */
@ClassId(4)
public final class OpenAccount extends LedgerProcessor<String, OpenAccount> implements FieldList {

    enum Result { OPENED, EXISTS, PARTITION_LOST }

    private Account account;

    public OpenAccount() {
    }

    OpenAccount(Account account) {
        this.account = account;
    }

    @Override
    public String process(Map.Entry<String, Account> entry) {
        int partition = ledger.visit(entry);
        if (entry.getValue() != null) {
            return Result.EXISTS.name();
        }
        if (ledger.lost(partition)) {
            return Result.PARTITION_LOST.name();
        }
        ledger.replace(entry, account);
        return Result.OPENED.name();
    }

    @Override
    public void fields(Fields fields) throws IOException {
        account = fields.object(account);
    }
}
