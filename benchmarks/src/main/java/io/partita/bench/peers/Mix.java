package io.partita.bench.peers;

import java.util.SplittableRandom;

/**
 * One client thread's stream of transactions: a uniformly random account, a debit (share {@code debitShare}) or a
 * credit of 1 to 100, and with probability {@code repeatShare} a repeat of one of the thread's last
 * {@link #REMEMBERED} transactions instead (same id, account and amount), as a client retrying after a lost answer.
 *
 * <p>Why more debits than credits: with opening balances near the overdraft limit, the balances settle close to it,
 * so a steady share of debits is rejected however long or fast the run is; with an even mix, balances would drift up
 * as rejections remove debits, and a faster system would see fewer rejections than a slower one.
 *
 * <p>Used by one thread only; each thread's ids carry its own prefix, so ids are unique across threads.
 */
final class Mix {

    static final int REMEMBERED = 256;
    static final int MAX_AMOUNT = 100;

    private final String prefix;
    private final int accounts;
    private final double debitShare;
    private final double repeatShare;
    private final SplittableRandom random;
    private final Tx[] recent = new Tx[REMEMBERED];
    private final Answer[] firstAnswers = new Answer[REMEMBERED];
    private long sequence;
    private int remembered;
    /** The slot of the last transaction {@link #next} returned, when it was a repeat; else -1. */
    private int repeatSlot = -1;

    Mix(String prefix, int accounts, double debitShare, double repeatShare, long seed) {
        this.prefix = prefix;
        this.accounts = accounts;
        this.debitShare = debitShare;
        this.repeatShare = repeatShare;
        this.random = new SplittableRandom(seed);
    }

    /** The next transaction: new, or a repeat (then {@link #isRepeat()} is true until the next call). */
    Tx next() {
        if (remembered > 0 && random.nextDouble() < repeatShare) {
            repeatSlot = random.nextInt(Math.min(remembered, REMEMBERED));
            return recent[repeatSlot];
        }
        repeatSlot = -1;
        long amount = 1 + random.nextInt(MAX_AMOUNT);
        return new Tx(prefix + sequence++, random.nextInt(accounts), random.nextDouble() < debitShare
                ? -amount : amount);
    }

    boolean isRepeat() {
        return repeatSlot >= 0;
    }

    /** The first answer of the repeated transaction last returned by {@link #next}. */
    Answer firstAnswer() {
        return firstAnswers[repeatSlot];
    }

    /** Remembers a new transaction's first answer, for later repeats of it. */
    void answered(Tx tx, Answer answer) {
        int slot = remembered++ % REMEMBERED;
        recent[slot] = tx;
        firstAnswers[slot] = answer;
    }
}
