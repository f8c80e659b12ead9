package io.partita.node;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalKey;
import io.partita.account.MemberLedger;
import io.partita.account.TestAccess;
import io.partita.account.TxOutcome;
import io.partita.account.TxOutcomes;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.support.AllFeatures;
import io.partita.support.Ports;
import io.partita.support.TestProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A member owns partitions, and receives entry processors, before it has finished starting (a joining member gets
 * partitions by migration as soon as it is in the cluster). A transaction then is applied at once: its entry processor
 * needs no map proxy (it reads the partition's own stores), and its journal entry waits in the member's journal writer,
 * which writes it once the member has started it.
 */
class MemberStartTest {

    private HazelcastInstance member;

    @AfterEach
    void stop() {
        if (member != null) {
            member.getLifecycleService().terminate();
        }
    }

    @Test
    void shouldApplyATransactionThatArrivesBeforeTheMemberStartedAndJournalItOnceStarted() throws Exception {
        int port = Ports.free();
        PartitaProperties properties = TestProperties.tcp("member-start-" + UUID.randomUUID(), port,
                List.of("127.0.0.1:" + port), 0);
        member = Hazelcast.newHazelcastInstance(HazelcastConfigs.memberConfig(properties, "http://127.0.0.1:0",
                AllFeatures.LIST));
        // Alone, a member serves once split-brain protection has first been evaluated (a heartbeat interval in).
        Members.awaitMajority(member);
        IMap<String, Account> accounts = AccountFeature.accounts(member);
        accounts.set("early", Account.open(100, 0));

        @SuppressWarnings("unchecked")
        EntryProcessor<String, Account, TxOutcomes> debit = (EntryProcessor<String, Account, TxOutcomes>)
                TestAccess.applyTransaction("early", TxRequest.of("tx-early", TxType.DEBIT, 30,
                        ClusterClock.now(member)));
        TxOutcome outcome = accounts.submitToKey("early", debit).toCompletableFuture()
                .get(10, TimeUnit.SECONDS).list().get(0);
        assertEquals(TxOutcome.Kind.RECORDED, outcome.kind());
        assertEquals(70, accounts.get("early").balance());
        assertEquals(0, AccountFeature.journal(member).size(), "nothing writes the journal before the member started");

        Members.createProxies(member);
        PartitionSentinels.of(member).start(true);
        MemberLedger.start(member);

        // Stamped now, the entry also stays in the account's tail for the hold (twice the heartbeat timeout), as
        // every fresh entry does: what shows it written is the journal's record of it.
        JournalKey key = new JournalKey("early", "tx-early");
        await().atMost(Duration.ofSeconds(10)).until(() -> AccountFeature.journal(member).containsKey(key));
        assertEquals(outcome.entry(), AccountFeature.journal(member).get(key).entry(key));
    }
}
