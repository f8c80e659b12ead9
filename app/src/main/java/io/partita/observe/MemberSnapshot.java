package io.partita.observe;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.Arrays;
import java.util.UUID;

/**
 * One member's answer to {@link MemberSnapshotTask}: the partitions it owned when asked, the accounts in each, and its
 * node's transaction counters, and how far its wall clock is from the cluster's time.
 */
@ClassId(81)
final class MemberSnapshot implements FieldList {

    private UUID member;
    private int[] partitionIds;
    private long[] accountEntries;
    private long transactions;
    private double transactionsPerSecond;
    private long clockOffsetMillis;

    MemberSnapshot() {
    }

    MemberSnapshot(UUID member, int[] partitionIds, long[] accountEntries, long transactions,
                   double transactionsPerSecond, long clockOffsetMillis) {
        if (partitionIds.length != accountEntries.length) {
            throw new IllegalArgumentException("one entry count per partition");
        }
        this.member = member;
        this.partitionIds = partitionIds.clone();
        this.accountEntries = accountEntries.clone();
        this.transactions = transactions;
        this.transactionsPerSecond = transactionsPerSecond;
        this.clockOffsetMillis = clockOffsetMillis;
    }

    /** How far the member's wall clock is ahead of the cluster's time, in milliseconds. */
    long clockOffsetMillis() {
        return clockOffsetMillis;
    }

    UUID member() {
        return member;
    }

    int[] partitionIds() {
        return partitionIds.clone();
    }

    long[] accountEntries() {
        return accountEntries.clone();
    }

    long ownedAccounts() {
        return Arrays.stream(accountEntries).sum();
    }

    long transactions() {
        return transactions;
    }

    double transactionsPerSecond() {
        return transactionsPerSecond;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        member = fields.value(member, (out, id) -> {
            out.writeLong(id.getMostSignificantBits());
            out.writeLong(id.getLeastSignificantBits());
        }, in -> new UUID(in.readLong(), in.readLong()));
        partitionIds = fields.int32s(partitionIds);
        accountEntries = fields.int64s(accountEntries);
        transactions = fields.int64(transactions);
        transactionsPerSecond = fields.float64(transactionsPerSecond);
        clockOffsetMillis = fields.int64(clockOffsetMillis);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemberSnapshot other && member.equals(other.member)
                && Arrays.equals(partitionIds, other.partitionIds)
                && Arrays.equals(accountEntries, other.accountEntries)
                && transactions == other.transactions
                && Double.compare(transactionsPerSecond, other.transactionsPerSecond) == 0
                && clockOffsetMillis == other.clockOffsetMillis;
    }

    @Override
    public int hashCode() {
        return member.hashCode() * 31 + Arrays.hashCode(partitionIds);
    }

    @Override
    public String toString() {
        return "MemberSnapshot[" + member + ", " + partitionIds.length + " partitions, " + ownedAccounts()
                + " accounts, " + transactions + " transactions]";
    }
}
