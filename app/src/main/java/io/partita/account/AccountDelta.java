package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.micronaut.core.annotation.Nullable;

import java.io.IOException;

/**
 * What one entry processor changed on one account, in the form its backup applies: the entries it appended (already
 * encoded, with the balance and version they leave), the seq through which it trimmed the tail, a new fence, a job's
 * run
 * key; or, for an account just opened, the whole account. The backup never decides anything again, so it cannot
 * disagree with its primary, and a transaction's backup carries one encoded entry instead of the account.
 *
 * @param replacement  the whole account to store, or null for a change of the stored one
 * @param appended     entries in {@link Tail}'s encoding to add at the end of the tail, or empty
 * @param balance      the balance after the appended entries (read only when some were appended)
 * @param version      the version after the appended entries (read only when some were appended)
 * @param trimThrough  the seq through which the tail was trimmed, or -1
 * @param fence        the fence the account now carries, or -1 for unchanged
 * @param job          a job run key the account now remembers, or null
 */
record AccountDelta(@Nullable Account replacement, byte[] appended, long balance, long version, long trimThrough,
                    long fence, @Nullable String job) {

    /** Changes nothing; sent so that an answer waits until the backup has applied everything before it. */
    static final AccountDelta NONE = new AccountDelta(null, Tail.EMPTY, 0, 0, -1, -1, null);

    private static final int REPLACEMENT = 1;
    private static final int APPENDED = 2;
    private static final int TRIMMED = 4;
    private static final int FENCE = 8;
    private static final int JOB = 16;

    static AccountDelta replacedBy(Account account) {
        return new AccountDelta(account, Tail.EMPTY, 0, 0, -1, -1, null);
    }

    /** The change from {@code before} to {@code after}, where {@code after} only appended entries to its tail. */
    static AccountDelta appended(Account before, Account after) {
        int from = before.tail().length;
        byte[] appended = java.util.Arrays.copyOfRange(after.tail(), from, after.tail().length);
        return new AccountDelta(null, appended, after.balance(), after.version(), -1, -1, null);
    }

    static AccountDelta trimmedThrough(long seq) {
        return new AccountDelta(null, Tail.EMPTY, 0, 0, seq, -1, null);
    }

    AccountDelta withTrim(long through) {
        return new AccountDelta(replacement, appended, balance, version, through, fence, job);
    }

    AccountDelta withFence(long newFence) {
        return new AccountDelta(replacement, appended, balance, version, trimThrough, newFence, job);
    }

    AccountDelta withJob(String runKey) {
        return new AccountDelta(replacement, appended, balance, version, trimThrough, fence, runKey);
    }

    /** The backup's account after this change; null when there is nothing to change (no account here yet). */
    Account apply(@Nullable Account current) {
        if (replacement != null) {
            return replacement;
        }
        if (current == null) {
            return null;
        }
        Account next = current;
        if (appended.length > 0) {
            next = new Account(balance, next.overdraftLimit(), version, next.fence(), next.openingBalance(),
                    Tail.append(next.tail(), appended), next.jobs(), next.conflicts());
        }
        if (trimThrough >= 0) {
            next = next.trimmedThrough(trimThrough);
        }
        if (fence >= 0) {
            next = next.withFence(fence);
        }
        if (job != null) {
            next = next.withJob(job);
        }
        return next;
    }

    void writeTo(ObjectDataOutput out) throws IOException {
        int flags = (replacement != null ? REPLACEMENT : 0) | (appended.length > 0 ? APPENDED : 0)
                | (trimThrough >= 0 ? TRIMMED : 0) | (fence >= 0 ? FENCE : 0) | (job != null ? JOB : 0);
        out.writeByte(flags);
        if (replacement != null) {
            out.writeObject(replacement);
        }
        if (appended.length > 0) {
            out.writeByteArray(appended);
            out.writeLong(balance);
            out.writeLong(version);
        }
        if (trimThrough >= 0) {
            out.writeLong(trimThrough);
        }
        if (fence >= 0) {
            out.writeLong(fence);
        }
        if (job != null) {
            out.writeString(job);
        }
    }

    static AccountDelta readFrom(ObjectDataInput in) throws IOException {
        int flags = in.readByte();
        Account replacement = (flags & REPLACEMENT) != 0 ? in.readObject() : null;
        byte[] appended = Tail.EMPTY;
        long balance = 0;
        long version = 0;
        if ((flags & APPENDED) != 0) {
            appended = in.readByteArray();
            balance = in.readLong();
            version = in.readLong();
        }
        long trimThrough = (flags & TRIMMED) != 0 ? in.readLong() : -1;
        long fence = (flags & FENCE) != 0 ? in.readLong() : -1;
        String job = (flags & JOB) != 0 ? in.readString() : null;
        return new AccountDelta(replacement, appended, balance, version, trimThrough, fence, job);
    }
}
