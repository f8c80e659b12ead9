package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.node.ProcessingMode;
import io.partita.transaction.TransactionService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmarks' own check, on one real node: it passes for every posting strategy when the books match the grid,
 * and fails when the grid holds a change the benchmark did not count, or lacks one it did.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BooksTest {

    private static final int ACCOUNTS = 8;

    private LocalCluster cluster;
    private HazelcastInstance member;

    @BeforeAll
    void startOneNode() {
        cluster = LocalCluster.start(1, 0, Map.of());
        member = cluster.member(0);
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    @BeforeEach
    void emptyTheMaps() {
        AccountFeature.accounts(member).clear();
        AccountFeature.journal(member).clear();
    }

    @ParameterizedTest
    @EnumSource(Posting.class)
    void shouldPassTheCheckWhenEveryPostIsCounted(Posting mode) {
        Books books = Books.open(member, ACCOUNTS, 1_000);
        Posting.Poster poster = mode.create(cluster.context(0), books);

        post(poster, mode.name(), 40);
        poster.drain();

        assertTrue(books.verify(member).startsWith("checked"));
        assertEquals(mode == Posting.RAW_SET || mode == Posting.EP_NOOP ? 0 : 40, books.recorded());
    }

    @Test
    void shouldFailTheCheckWhenABalanceChangedBehindTheBenchmark() {
        Books books = Books.open(member, ACCOUNTS, 1_000);
        post(Posting.PARTITIONED.create(cluster.context(0), books), "p", 10);

        IMap<String, Account> accounts = AccountFeature.accounts(member);
        Account account = accounts.get(Books.accountId(0));
        accounts.set(Books.accountId(0), new Account(account.balance() + 1, account.overdraftLimit(),
                account.version(), account.fence(), account.openingBalance(), account.tail(), account.jobs(),
                account.conflicts()));

        assertThrows(IllegalStateException.class, () -> books.verify(member));
    }

    @Test
    void shouldFailTheCheckWhenTheGridRecordedTransactionsTheBenchmarkDidNotCount() {
        Books books = Books.open(member, ACCOUNTS, 1_000);
        post(Posting.LOCKED.create(cluster.context(0), books), "l", 10);

        // A debit and a credit of the same amount: the total is unchanged, only versions and journal can tell.
        TransactionService service = cluster.bean(0, TransactionService.class);
        service.apply(Books.accountId(1), TxRequest.of("extra-1", TxType.DEBIT, 5, 1L), ProcessingMode.PARTITIONED)
                .toCompletableFuture().join();
        service.apply(Books.accountId(1), TxRequest.of("extra-2", TxType.CREDIT, 5, 1L), ProcessingMode.PARTITIONED)
                .toCompletableFuture().join();

        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> books.verify(member));
        assertTrue(failure.getMessage().contains("versions 12"), failure.getMessage());
    }

    @Test
    void shouldRefuseAReplayAsTheFirstAnswerToAUniqueId() {
        Books books = Books.open(member, ACCOUNTS, 1_000);
        TxRequest request = TxRequest.of("once", TxType.CREDIT, 5, 1L);
        JournalEntry entry = new JournalEntry(Books.accountId(0), "once", TxType.CREDIT, 5, TxStatus.APPLIED, 1_005,
                1L, 1, null);

        assertThrows(IllegalStateException.class, () -> books.record(request, TxOutcome.replayed(entry), false));
        assertThrows(IllegalStateException.class, () -> books.verify(member));
    }

    private static void post(Posting.Poster poster, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            poster.post(Books.accountId(i % ACCOUNTS),
                    TxRequest.of(prefix + "-" + i, i % 2 == 0 ? TxType.DEBIT : TxType.CREDIT, 1 + i, 1L));
        }
    }
}
