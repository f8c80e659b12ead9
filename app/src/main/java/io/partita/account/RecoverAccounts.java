package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.Map;

/**
 * Puts accounts read back from a member's disk into the cluster after a restart ({@link LedgerDisk}): an account the
 * cluster does not hold is taken as it is; one it holds (another disk's copy came first, or a client wrote it since)
 * is joined with it as a split-brain merge joins two sides ({@link AccountUnion}): every transaction of the disk's copy
 * whose txId the account knows neither in its tail nor in its journal is appended, and one it knows counts once. So a
 * copy that is behind adds nothing, and copies of one partition from several disks can come in any order.
 * Runs on the partition thread of each account's owner, like every writer of the ledger; its backup is the
 * usual {@link AccountBackup}. Run again after a retry, it finds its transactions known and adds nothing.
 */
@ClassId(13)
public final class RecoverAccounts extends LedgerProcessor<Object, RecoverAccounts> implements FieldList {

    private Map<String, Account> accounts;

    public RecoverAccounts() {
    }

    RecoverAccounts(Map<String, Account> accounts) {
        this.accounts = accounts;
    }

    @Override
    public Object process(Map.Entry<String, Account> entry) {
        int partition = ledger.visit(entry);
        Account found = accounts.get(entry.getKey());
        if (found == null) {
            return null;
        }
        Account existing = entry.getValue();
        if (existing == null) {
            ledger.replace(entry, found);
            return null;
        }
        AccountUnion.Result joined = ledger.union(partition, entry.getKey(), existing, found);
        if (!joined.account().equals(existing)) {
            ledger.replace(entry, joined.account());
        }
        return null;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        accounts = fields.map(accounts, (out, id) -> out.writeString(id),
                (out, account) -> out.writeByteArray(LedgerDisk.encode(account)),
                ObjectDataInput::readString, in -> LedgerDisk.decode(in.readByteArray()));
    }
}
