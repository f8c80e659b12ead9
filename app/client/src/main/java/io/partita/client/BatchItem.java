package io.partita.client;

/** One transaction of a batch ({@code POST /transactions/batch}); {@link #of} makes its txId. */
public record BatchItem(String txId, String accountId, TxType type, long amount) {

    public static BatchItem of(String accountId, TxType type, long amount) {
        return new BatchItem(PartitaClient.newTxId(), accountId, type, amount);
    }
}
