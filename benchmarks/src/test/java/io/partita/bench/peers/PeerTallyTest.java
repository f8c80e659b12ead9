package io.partita.bench.peers;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeerTallyTest {

    /** Two new transactions (one applied debit of 30, one rejected debit of 500) and a repeat of the first. */
    private static Tally twoTransactionsAndARepeat() {
        Tally tally = new Tally();
        Tx debit = new Tx("t-1", 0, -30);
        Answer first = Answer.unsaid(true, 70);
        tally.first(debit, first);
        tally.first(new Tx("t-2", 1, -500), Answer.unsaid(false, 100));
        tally.repeat(debit, Answer.unsaid(true, 70), first);
        return tally;
    }

    /** The check of {@link #twoTransactionsAndARepeat()} against {@code state} fails, saying each of {@code parts}. */
    private static void assertCheckFails(ServerState state, String... parts) {
        IllegalStateException failed = assertThrows(IllegalStateException.class,
                () -> twoTransactionsAndARepeat().verify(state, 2));
        for (String part : parts) {
            assertTrue(failed.getMessage().contains(part), failed.getMessage());
        }
    }

    @Test
    void aStateHoldingExactlyWhatTheClientsWereToldPasses() {
        String checked = twoTransactionsAndARepeat().verify(new ServerState(2, 170, 200, 2, 1, -30, 0), 2);
        assertTrue(checked.contains("2 transactions (1 rejected), 1 repeats"), checked);
    }

    @Test
    void aTransactionAppliedTwiceOrLostFailsTheCheckNamingTheBalances() {
        assertCheckFails(new ServerState(2, 140, 200, 2, 1, -60, 1),
                "balances sum to 140, expected opening 200 + applied -30", "1 accounts not equal");
    }

    @Test
    void aMissingJournalRowOrRejectionFailsTheCheck() {
        assertCheckFails(new ServerState(2, 170, 200, 1, 0, -30, 0),
                "1 journal rows, expected one per transaction: 2", "0 rejected in the journal, clients were told 1");
    }

    @Test
    void aMissingAccountFailsTheCheck() {
        assertCheckFails(new ServerState(1, 70, 100, 2, 1, -30, 0), "1 accounts, expected 2");
    }

    @Test
    void aRepeatAnsweredOtherwiseThanTheFirstTimeIsRefusedAndFailsTheCheck() {
        Tally tally = new Tally();
        Tx debit = new Tx("t-1", 0, -30);
        Answer first = Answer.unsaid(true, 70);
        tally.first(debit, first);
        assertThrows(IllegalStateException.class, () -> tally.repeat(debit, Answer.unsaid(true, 40), first));
        assertThrows(IllegalStateException.class, () -> tally.repeat(debit, new Answer(true, 70,
                Answer.Replay.FIRST), first));
        IllegalStateException check = assertThrows(IllegalStateException.class, () -> tally.verify(
                new ServerState(1, 70, 100, 1, 0, -30, 0), 1));
        assertTrue(check.getMessage().contains("2 repeats not answered with their first answer"), check.getMessage());
    }

    @Test
    void aNewTransactionAnsweredAsAReplayIsRefused() {
        assertThrows(IllegalStateException.class, () -> new Tally().first(new Tx("t-1", 0, 5),
                new Answer(true, 105, Answer.Replay.REPLAYED)));
    }

    @Test
    void theMixRepeatsEarlierTransactionsWholeAndNeverReusesANewId() {
        Mix mix = new Mix("c0-", 10, 0.55, 0.1, 7);
        Set<String> ids = new HashSet<>();
        int repeats = 0;
        int debits = 0;
        for (int i = 0; i < 10_000; i++) {
            Tx tx = mix.next();
            if (mix.isRepeat()) {
                repeats++;
                assertTrue(ids.contains(tx.id()), tx + " repeats an id never sent");
                assertEquals(tx.amount() > 0, mix.firstAnswer().balance() > 0, "the repeated one's first answer");
            } else {
                assertTrue(ids.add(tx.id()), tx + " reuses an id");
                assertTrue(tx.account() >= 0 && tx.account() < 10 && tx.amount() != 0
                        && Math.abs(tx.amount()) <= Mix.MAX_AMOUNT, tx.toString());
                debits += tx.amount() < 0 ? 1 : 0;
                // A made-up first answer whose sign says what the transaction was.
                mix.answered(tx, Answer.unsaid(true, tx.amount()));
            }
        }
        assertTrue(repeats > 800 && repeats < 1_200, repeats + " repeats of 10,000 at 10%");
        assertTrue(debits > 4_600 && debits < 5_300, debits + " debits of about 9,000 new at 55%");
    }
}
