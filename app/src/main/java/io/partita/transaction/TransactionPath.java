package io.partita.transaction;

import io.partita.account.Ledger;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.node.ProcessingMode;

import java.util.concurrent.CompletionStage;

/**
 * One way of running a transaction on one account. Both paths decide with {@link Ledger} and give the same answers;
 * they differ in how they keep two workers off one account: the partition thread, or a lock.
 */
public interface TransactionPath {

    ProcessingMode mode();

    /**
     * Completes with the outcome, or exceptionally with a grid failure that {@link io.partita.refusal.GridFailures}
     * translates.
     */
    CompletionStage<TxOutcome> apply(String accountId, TxRequest request);
}
