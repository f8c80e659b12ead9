package io.partita.account;

import com.hazelcast.spi.merge.MergingEntry;
import io.partita.node.ClassId;

/**
 * How the accounts map merges after a network split heals: an account only one side holds is taken as it is; an
 * account both sides hold becomes their union ({@link AccountUnion}), so that no side's acknowledged transaction is
 * lost, and a merge that leaves it below its overdraft limit is counted as a conflict.
 * Hazelcast calls {@link #merge} on the partition thread of the account's owner in the merged cluster,
 * once per account the smaller side brings ({@code MergeOperation}); the result goes to the backups as a plain value.
 * The member is injected before each call (the record store initializes the policy with the member's managed context),
 * and the partition's journal is read from that thread, as the entry processors read it.
 */
@ClassId(10)
public final class AccountMergePolicy extends MemberMergePolicy<Account> {

    @Override
    public Object merge(MergingEntry<Object, Account> merging, MergingEntry<Object, Account> existing) {
        if (existing == null || existing.getRawValue() == null) {
            MemberLedger.of(hazelcast).takenInWhole();
            return merging.getRawValue();
        }
        String accountId = (String) merging.getKey();
        Account theirs = merging.getDeserializedValue();
        Account ours = existing.getDeserializedValue();
        if (theirs == null) {
            return existing.getRawValue();
        }
        MemberLedger ledger = MemberLedger.of(hazelcast);
        int partition = partitionOf(accountId);
        AccountUnion.Result joined = AccountUnion.of(accountId, ours, theirs, ledger, partition);
        ledger.merged(partition, accountId, joined);
        return joined.account().equals(ours) ? existing.getRawValue() : joined.account();
    }
}
