package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.Identified;
import io.partita.node.Wire;

import java.io.IOException;
import java.util.Collections;
import java.util.List;

/** The outcomes of one account's transactions in an {@link ApplyTransactions}, in the order of its requests. */
public final class TxOutcomes implements Identified {

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
    public int getClassId() {
        return AccountFeature.TX_OUTCOMES;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        Wire.writeList(out, outcomes, (o, outcome) -> outcome.writeData(o));
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        outcomes = Wire.readList(in, i -> {
            TxOutcome outcome = new TxOutcome();
            outcome.readData(i);
            return outcome;
        });
    }
}
