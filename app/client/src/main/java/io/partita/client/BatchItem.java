package io.partita.client;

/**
 * One transaction of a batch ({@code POST /transactions/batch}); {@link #of}, or a null {@code txId}, lets the client
 * make its txId.
 */
public record BatchItem(String txId, String accountId, TxType type, long amount) {

    public BatchItem {
        if (txId == null) {
            txId = PartitaClient.newTxId();
        }
    }

    public static BatchItem of(String accountId, TxType type, long amount) {
        return new BatchItem(PartitaClient.newTxId(), accountId, type, amount);
    }
}
