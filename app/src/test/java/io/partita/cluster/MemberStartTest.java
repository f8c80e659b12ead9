package io.partita.cluster;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.ApplyTransaction;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.support.Ports;
import io.partita.support.TestProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A member owns partitions, and receives entry processors, before it has created its map proxies (a joining member
 * gets them by migration as soon as it is in the cluster). Creating the journal's proxy adds its index on every
 * partition: an entry processor that created it from a partition thread failed at once, and one that waited for the
 * proxy another thread was creating waited on itself, for two minutes, and failed with the member's start. Now the
 * processor's invocation retries until the member is done.
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
    void shouldApplyATransactionThatArrivesBeforeTheMemberCreatedItsMaps() throws Exception {
        int port = Ports.free();
        PartitaProperties properties = TestProperties.tcp("member-start-" + UUID.randomUUID(), port,
                List.of("127.0.0.1:" + port), 0);
        member = Hazelcast.newHazelcastInstance(HazelcastConfigs.memberConfig(properties, "http://127.0.0.1:0"));
        IMap<String, Account> accounts = Maps.accounts(member);
        accounts.set("early", Account.open("early", 100, 0));

        CompletableFuture<TxOutcome> debit = accounts.submitToKey("early",
                new ApplyTransaction(TxRequest.of("tx-early", TxType.DEBIT, 30, 1_000L))).toCompletableFuture();
        assertThrows(TimeoutException.class, () -> debit.get(2, TimeUnit.SECONDS),
                "the transaction waits for the member's maps");

        Maps.createProxies(member);

        TxOutcome outcome = debit.get(60, TimeUnit.SECONDS);
        assertEquals(TxOutcome.Kind.RECORDED, outcome.kind());
        assertEquals(70, accounts.get("early").balance());
        assertEquals(70, outcome.entry().balanceAfter());
    }
}
