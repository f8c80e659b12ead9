package io.partita.account;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.Collections;
import java.util.List;

/** The outcomes of one account's transactions in an {@link ApplyTransactions}, in the order of its requests. */
@ClassId(5)
public final class TxOutcomes implements FieldList {

    private List<TxOutcome> outcomes;

    public TxOutcomes() {
    }

    TxOutcomes(List<TxOutcome> outcomes) {
        this.outcomes = outcomes;
    }

    static TxOutcomes repeat(TxOutcome outcome, int times) {
        return new TxOutcomes(Collections.nCopies(times, outcome));
    }

    public List<TxOutcome> list() {
        return Collections.unmodifiableList(outcomes);
    }

    @Override
    public void fields(Fields fields) throws IOException {
        outcomes = fields.list(outcomes, (out, outcome) -> outcome.writeData(out), in -> {
            TxOutcome outcome = new TxOutcome();
            outcome.readData(in);
            return outcome;
        });
    }
}
