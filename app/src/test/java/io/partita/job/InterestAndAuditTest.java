package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.Ledger;
import io.partita.account.Tail;
import io.partita.account.TestAccess;
import io.partita.account.TxOutcomes;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * INTEREST on hand-computed balances (half-even on minor units), then AUDIT: clean after the jobs and the
 * transactions, and reporting exactly the accounts whose balance was changed by writing around the API.
 */
class InterestAndAuditTest {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldPayHalfEvenInterestAndThenAuditFindOnlyThePlantedMismatches() throws Exception {
        try (TestCluster cluster = TestCluster.start(2);
             JobMembers jobs = new JobMembers(JobMembers.settings(64, Duration.ZERO))) {
            cluster.members().forEach(jobs::on);
            HazelcastInstance member = cluster.member(0);
            // balance before the job -> interest at 25 basis points, computed by hand
            Map<String, Long> interest = new LinkedHashMap<>();
            interest.put("i-1000", 2L);       // 2.5     -> 2
            interest.put("i-1400", 4L);       // 3.5     -> 4
            interest.put("i-600", 2L);        // 1.5     -> 2
            interest.put("i-12345", 31L);     // 30.8625 -> 31
            interest.put("i-1000000", 2500L); // 2500
            interest.put("i-tx", 4L);         // 1000 + 400 credited = 1400: 3.5 -> 4
            interest.put("i-200", 0L);        // 0.5     -> 0: skipped
            interest.put("i-10", 0L);         // 0.025   -> 0: skipped
            interest.put("i-0", 0L);          // skipped
            interest.put("i-neg", 0L);        // -500: skipped
            interest.put("i-max", 0L);        // would pass the largest balance: rejected
            JobMembers.open(member, List.of(new TestAccount("i-1000", 1_000, 0), new TestAccount("i-1400", 1_400, 0),
                    new TestAccount("i-600", 600, 0), new TestAccount("i-12345", 12_345, 0),
                    new TestAccount("i-1000000", 1_000_000, 0), new TestAccount("i-tx", 1_000, 0),
                    new TestAccount("i-200", 200, 0), new TestAccount("i-10", 10, 0), new TestAccount("i-0", 0, 0),
                    new TestAccount("i-neg", 0, 600), new TestAccount("i-max", Ledger.MAX_BALANCE, 0)));
            transact(member, "i-tx", "t-1", TxType.CREDIT, 400);
            transact(member, "i-neg", "t-2", TxType.DEBIT, 500);
            Map<String, Account> before = AccountFeature.accounts(member).getAll(interest.keySet());

            Job paid = run(jobs, cluster.member(1), "interest-1", new JobSpec(JobType.INTEREST, 0, 25, false));

            assertEquals(new JobTally(11, 6, 1, 4, 2 + 4 + 2 + 31 + 2500 + 4, 0, List.of()), paid.tally());
            Map<String, Account> after = AccountFeature.accounts(member).getAll(interest.keySet());
            interest.forEach((id, earned) -> assertEquals(before.get(id).balance() + earned, after.get(id).balance(),
                    id));
            String txId = JobRules.txId("interest-1", paid.run());
            JournalEntry rejected = recorded(member, "i-max", txId);
            assertEquals(TxStatus.REJECTED, rejected.status());
            assertEquals(TxType.INTEREST, rejected.type());
            assertEquals(null, recorded(member, "i-200", txId));

            Job clean = run(jobs, member, "audit-1", new JobSpec(JobType.AUDIT, 0, 0, false));
            assertEquals(JobTally.audited(11, List.of(), 0), clean.tally());

            // Written around the API: balances no journal entry explains.
            Account withHistory = after.get("i-tx");
            AccountFeature.accounts(member).set("i-tx", new Account(withHistory.balance() + 7,
                    withHistory.overdraftLimit(), withHistory.version(), withHistory.fence(),
                    withHistory.openingBalance(), withHistory.tail(), withHistory.jobs(), 0));
            Account untouched = after.get("i-200");
            AccountFeature.accounts(member).set("i-200", new Account(999, 0, 0, 0, untouched.openingBalance(),
                    Tail.EMPTY,
                    untouched.jobs(), 0));
            // A merge after a network split left this one below its limit: its journal explains it, it is reported.
            String merged = after.keySet().stream().filter(id -> !id.equals("i-tx") && !id.equals("i-200"))
                    .findFirst().orElseThrow();
            Account conflicted = after.get(merged);
            AccountFeature.accounts(member).set(merged, new Account(conflicted.balance(), conflicted.overdraftLimit(),
                    conflicted.version(), conflicted.fence(), conflicted.openingBalance(), conflicted.tail(),
                    conflicted.jobs(), 1));

            Job audited = run(jobs, cluster.member(1), "audit-2", new JobSpec(JobType.AUDIT, 0, 0, false));
            assertEquals(JobTally.audited(11, List.of("i-200", "i-tx"), 1), audited.tally());
        }
    }

    private static Job run(JobMembers jobs, HazelcastInstance member, String id, JobSpec spec) {
        jobs.jobs(member).start(id, spec);
        await().atMost(Duration.ofMinutes(1)).until(() -> JobFeature.jobs(member).get(id).state() != JobState.RUNNING);
        Job job = JobFeature.jobs(member).get(id);
        assertEquals(JobState.COMPLETED, job.state());
        assertEquals(271, job.partitionsDone());
        return job;
    }

    /** A transaction as {@code AccountService} runs it: its entry processor (the journal writer copies the entry). */
    @SuppressWarnings("unchecked")
    private static void transact(HazelcastInstance member, String id, String txId, TxType type, long amount)
            throws Exception {
        var processor = (EntryProcessor<String, Account, TxOutcomes>) TestAccess.applyTransaction(id,
                TxRequest.of(txId, type, amount, System.currentTimeMillis()));
        AccountFeature.accounts(member).submitToKey(id, processor).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** The entry recorded under {@code txId}, in the account's tail or its journal, or null. */
    private static JournalEntry recorded(HazelcastInstance member, String accountId, String txId) {
        JournalEntry inTail = AccountFeature.accounts(member).get(accountId).recorded(accountId, txId);
        JournalKey key = new JournalKey(accountId, txId);
        JournalRecord inJournal = AccountFeature.journal(member).get(key);
        return inTail != null ? inTail : inJournal == null ? null : inJournal.entry(key);
    }
}
