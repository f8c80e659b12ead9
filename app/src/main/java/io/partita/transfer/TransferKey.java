package io.partita.transfer;

import com.hazelcast.partition.PartitionAware;

import java.util.Objects;

/**
 * The key of a transfer's record. Its partition key is the source account, so the record lives, migrates and is
 * recovered with the account it debits. A transfer id is scoped to its source account, as a transaction id is to its
 * account.
 */
public record TransferKey(String from, String txId) implements PartitionAware<String> {

    public TransferKey {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(txId, "txId");
    }

    @Override
    public String getPartitionKey() {
        return from;
    }
}
