package io.partita.account;

import com.hazelcast.partition.PartitionAware;

import java.util.Objects;

/**
 * The key of a journal entry. Its partition key is the account id, so an account and its whole journal always live
 * in one partition and migrate together; this is what lets the transaction entry processor read the journal of its
 * own account without leaving the partition thread.
 */
public record JournalKey(String accountId, String txId) implements PartitionAware<String> {

    public JournalKey {
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(txId, "txId");
    }

    @Override
    public String getPartitionKey() {
        return accountId;
    }
}
