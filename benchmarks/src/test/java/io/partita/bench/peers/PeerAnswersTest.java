package io.partita.bench.peers;

import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.client.TxResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How each driver reads its system's answer, and how the cores are read from /proc. */
class PeerAnswersTest {

    private static final Tx DEBIT = new Tx("t0-1", 3, -40);

    @Test
    void theLuaScriptsRecordIsReadAsAppliedOrRejectedWithItsBalance() {
        assertEquals(Answer.unsaid(true, -20), RedisLedger.parse(DEBIT, "3|-40|APPLIED|-20"));
        assertEquals(Answer.unsaid(false, 10), RedisLedger.parse(DEBIT, "3|-40|REJECTED|10"));
        assertThrows(IllegalStateException.class, () -> RedisLedger.parse(DEBIT, "3|-40|UNKNOWN_ACCOUNT|"));
        assertThrows(IllegalStateException.class, () -> RedisLedger.parse(DEBIT, "garbage"));
    }

    @Test
    void aClientResultIsAppliedOrRejectedWithItsBalanceAndAReplayWhenTheNodeSaysSoUnlessRetried() {
        assertEquals(new Answer(true, -20, Answer.Replay.FIRST),
                PartitaHttpLedger.answer(new TxResult("t0-1", "acc-3", true, -20, false, null, 1)));
        assertEquals(new Answer(false, 10, Answer.Replay.REPLAYED),
                PartitaHttpLedger.answer(new TxResult("t0-1", "acc-3", false, 10, true, "INSUFFICIENT_FUNDS", 1)));
        // After a retry (a 503 first) the header says nothing: the first attempt may have been recorded.
        assertEquals(new Answer(true, -20, Answer.Replay.UNSAID),
                PartitaHttpLedger.answer(new TxResult("t0-1", "acc-3", true, -20, true, null, 2)));
    }

    @Test
    void anEntryProcessorsOutcomeIsFirstWhenRecordedAReplayWhenReplayedAndUnsaidAfterARetry() {
        JournalEntry entry = new JournalEntry("acc-3", "t0-1", TxType.DEBIT, 40, TxStatus.APPLIED, -20, 0, 1, null);
        assertEquals(new Answer(true, -20, Answer.Replay.FIRST),
                PartitaLedger.answer(DEBIT, TxOutcome.recorded(entry), false));
        assertEquals(new Answer(true, -20, Answer.Replay.REPLAYED),
                PartitaLedger.answer(DEBIT, TxOutcome.replayed(entry), false));
        assertEquals(new Answer(true, -20, Answer.Replay.UNSAID),
                PartitaLedger.answer(DEBIT, TxOutcome.replayed(entry), true));
        assertEquals(new Answer(true, -20, Answer.Replay.UNSAID),
                PartitaLedger.answer(DEBIT, TxOutcome.recorded(entry), true));
        assertThrows(IllegalStateException.class, () -> PartitaLedger.answer(DEBIT, TxOutcome.conflict(entry),
                false));
        assertThrows(IllegalStateException.class, () -> PartitaLedger.answer(DEBIT, TxOutcome.notFound(), false));
    }

    @Test
    void cpuTimeIsReadFromProcStatEvenWhenTheCommandNameHasSpacesAndParentheses() {
        // Fields 14 and 15 (utime, stime) are 250 and 50 ticks.
        String stat = "4242 (redis-server (x) *:1) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 50 0 0 20 0 5 0 100 "
                + "1000000 500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        long tick = Cpu.parseStat(stat.replace(" 250 50 ", " 1 0 "));
        assertEquals(300 * tick, Cpu.parseStat(stat));
        assertEquals(true, Cpu.process(ProcessHandle.current().pid()) > 0, "this JVM has spent CPU time");
    }
}
