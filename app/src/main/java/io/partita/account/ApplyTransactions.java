package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.Wire;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The partitioned path: transactions on one or more accounts of one partition, each decided by {@link Ledger} and
 * appended to its account's tail, in one operation. This is a transaction's only replicated write: the entry rides in
 * the account, the backup gets the appended bytes ({@link AccountBackup}), and the journal is written later, off the
 * request path, by the member's {@link JournalWriter}.
 * Runs on the partition thread of the accounts' owner, one account after another, each account's
 * requests in the order given; nothing else touches those accounts meanwhile, so no lock is needed. Sent with
 * {@code submitToKey} for one account, or {@code submitToKeys} for several (one operation per partition; the same
 * instance then runs on each partition's thread, which is why what it wrote is gathered per thread). Its backup is an
 * {@link AccountBackup} on each backup replica's partition thread.
 *
 * <p>Failure: on a retry after a timeout or a member loss the processor may run again with the same requests; the
 * duplicate check answers with the first outcome, so each is applied at most once. It reads no clock.
 */
@ClassId(1)
public final class ApplyTransactions extends LedgerProcessor<TxOutcomes, ApplyTransactions> implements FieldList {

    private Map<String, List<TxRequest>> requests;

    public ApplyTransactions() {
    }

    /** @param requests by account, each account's in the order they are to be applied */
    public ApplyTransactions(Map<String, List<TxRequest>> requests) {
        this.requests = requests;
    }

    public static ApplyTransactions one(String accountId, TxRequest request) {
        return new ApplyTransactions(Map.of(accountId, List.of(request)));
    }

    @Override
    public TxOutcomes process(Map.Entry<String, Account> entry) {
        String accountId = entry.getKey();
        List<TxRequest> mine = requests.getOrDefault(accountId, List.of());
        int partition = ledger.visit(entry);
        Account before = entry.getValue();
        if (before == null) {
            TxOutcome absent = ledger.lost(partition) ? TxOutcome.partitionLost() : TxOutcome.notFound();
            return TxOutcomes.repeat(absent, mine.size());
        }
        Account account = before;
        List<TxOutcome> outcomes = new ArrayList<>(mine.size());
        List<JournalEntry> recorded = new ArrayList<>(mine.size());
        boolean replayed = false;
        for (TxRequest request : mine) {
            Ledger.Decision decision = ledger.decide(partition, accountId, account, request);
            outcomes.add(decision.outcome());
            replayed |= decision.outcome().kind() == TxOutcome.Kind.REPLAYED;
            if (decision.recorded() != null) {
                account = account.record(decision.recorded());
                recorded.add(decision.recorded());
            }
        }
        if (!recorded.isEmpty()) {
            ledger.record(entry, partition, before, account, recorded);
        } else if (replayed) {
            ledger.confirm(entry);
        }
        return new TxOutcomes(outcomes);
    }

    @Override
    public void fields(Fields fields) throws IOException {
        requests = fields.map(requests, ObjectDataOutput::writeString,
                (out, list) -> Wire.writeList(out, list, (o, request) -> request.writeTo(o)),
                ObjectDataInput::readString, in -> Wire.readList(in, TxRequest::readFrom));
    }
}
