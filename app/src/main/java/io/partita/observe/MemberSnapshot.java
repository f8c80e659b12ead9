package io.partita.observe;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.Identified;

import java.io.IOException;
import java.util.Arrays;
import java.util.UUID;

/**
 * One member's answer to {@link MemberSnapshotTask}: the partitions it owned when asked, the accounts in each, and its
 * node's transaction counters.
 */
final class MemberSnapshot implements Identified {

    private UUID member;
    private int[] partitionIds;
    private long[] accountEntries;
    private long transactions;
    private double transactionsPerSecond;

    MemberSnapshot() {
    }

    MemberSnapshot(UUID member, int[] partitionIds, long[] accountEntries, long transactions,
                   double transactionsPerSecond) {
        if (partitionIds.length != accountEntries.length) {
            throw new IllegalArgumentException("one entry count per partition");
        }
        this.member = member;
        this.partitionIds = partitionIds.clone();
        this.accountEntries = accountEntries.clone();
        this.transactions = transactions;
        this.transactionsPerSecond = transactionsPerSecond;
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
    public int getClassId() {
        return ObserveFeature.MEMBER_SNAPSHOT;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(member.getMostSignificantBits());
        out.writeLong(member.getLeastSignificantBits());
        out.writeIntArray(partitionIds);
        out.writeLongArray(accountEntries);
        out.writeLong(transactions);
        out.writeDouble(transactionsPerSecond);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        member = new UUID(in.readLong(), in.readLong());
        partitionIds = in.readIntArray();
        accountEntries = in.readLongArray();
        transactions = in.readLong();
        transactionsPerSecond = in.readDouble();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemberSnapshot other && member.equals(other.member)
                && Arrays.equals(partitionIds, other.partitionIds)
                && Arrays.equals(accountEntries, other.accountEntries)
                && transactions == other.transactions
                && Double.compare(transactionsPerSecond, other.transactionsPerSecond) == 0;
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
