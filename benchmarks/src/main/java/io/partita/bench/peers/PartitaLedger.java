package io.partita.bench.peers;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.bench.LocalCluster;
import io.partita.node.ProcessingMode;
import io.partita.refusal.Refusal;
import io.partita.transaction.TransactionService;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Partita in this JVM: {@code members} nodes started as {@code LockVsPartitionBenchmark} starts them
 * ({@link LocalCluster}: each node the app's own Micronaut context and Hazelcast member, TCP on 127.0.0.1; the CP
 * Subsystem on 3 members when there are 3, unsafe mode on 1), and each transaction posted through the call its HTTP
 * controller makes, {@code TransactionService.apply(account, request, PARTITIONED)}: one entry processor at the
 * account's
 * partition owner, answered once the account and its backup hold the entry. Client thread {@code i} calls node
 * {@code i mod members}, as the JMH trial's clients do. This is that trial's {@code PARTITIONED} path, with the peers'
 * workload (overdraft rejections, repeated ids).
 *
 * <p>A 503 (the request timeout on an overloaded machine) is retried at once with the same id, as a client would;
 * the answer to a retry is then judged by its figures only (see {@link #answer}).
 *
 * <p>Cores: the members share this JVM with the client threads, so their CPU time is the process's minus the client
 * threads' own (see {@link PeerLedger#inProcess}).
 */
final class PartitaLedger implements PeerLedger {

    private static final int MAX_ATTEMPTS = 10;

    private final int members;
    private final LongAdder retries = new LongAdder();
    private LocalCluster cluster;

    PartitaLedger(int members) {
        this.members = members;
    }

    static String accountId(int account) {
        return "acc-" + account;
    }

    @Override
    public void open(int accounts, long opening, long overdraft) {
        cluster = LocalCluster.start(members, members >= 3 ? 3 : 0, Map.of());
        IMap<String, Account> map = AccountFeature.accounts(cluster.member(0));
        Map<String, Account> chunk = new HashMap<>();
        for (int i = 0; i < accounts; i++) {
            chunk.put(accountId(i), Account.open(opening, overdraft));
            if (chunk.size() == 10_000 || i == accounts - 1) {
                map.putAll(chunk);
                chunk.clear();
            }
        }
    }

    @Override
    public Session session(int client) {
        TransactionService service = cluster.bean(client % members, TransactionService.class);
        return new Session() {
            @Override
            public Answer post(Tx tx) {
                TxRequest request = TxRequest.of(tx.id(), tx.amount() < 0 ? TxType.DEBIT : TxType.CREDIT,
                        Math.abs(tx.amount()), System.currentTimeMillis());
                for (int attempt = 1; ; attempt++) {
                    try {
                        TxOutcome outcome = service.apply(accountId(tx.account()), request, ProcessingMode.PARTITIONED)
                                .toCompletableFuture().join();
                        return answer(tx, outcome, attempt > 1);
                    } catch (CompletionException e) {
                        if (attempt == MAX_ATTEMPTS || !(e.getCause() instanceof Refusal refusal
                                && refusal.isTransient())) {
                            throw e;
                        }
                        retries.increment();
                    }
                }
            }

            @Override
            public long retries() {
                return retries.sum();
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * A recorded or replayed outcome as an answer. After a retry (a 503 first) the replay flag says nothing: the
     * first attempt may have been recorded before it failed, so the answer's figures are compared, not its flag.
     */
    static Answer answer(Tx tx, TxOutcome outcome, boolean retried) {
        Answer.Replay replay = switch (outcome.kind()) {
            case RECORDED -> retried ? Answer.Replay.UNSAID : Answer.Replay.FIRST;
            case REPLAYED -> retried ? Answer.Replay.UNSAID : Answer.Replay.REPLAYED;
            default -> throw new IllegalStateException(tx + " was answered " + outcome);
        };
        JournalEntry entry = outcome.entry();
        return new Answer(entry.status() == TxStatus.APPLIED, entry.balanceAfter(), replay);
    }

    @Override
    public Set<Long> serverPids() {
        return Set.of();
    }

    @Override
    public boolean inProcess() {
        return true;
    }

    /**
     * Once the journal writers have copied every tail entry to the journal: the accounts and the journal, read whole
     * through member 0.
     */
    @Override
    public ServerState state() {
        cluster.awaitJournaled();
        HazelcastInstance member = cluster.member(0);
        Map<String, Long> applied = new HashMap<>();
        long rows = 0;
        long rejected = 0;
        long appliedSum = 0;
        for (Map.Entry<JournalKey, JournalRecord> row : AccountFeature.journal(member).entrySet()) {
            JournalEntry entry = row.getValue().entry(row.getKey());
            rows++;
            if (entry.status() == TxStatus.APPLIED) {
                long delta = entry.type().delta(entry.amount());
                applied.merge(entry.accountId(), delta, Long::sum);
                appliedSum += delta;
            } else {
                rejected++;
            }
        }
        long accounts = 0;
        long balances = 0;
        long openings = 0;
        long mismatched = 0;
        for (Map.Entry<String, Account> account : AccountFeature.accounts(member).entrySet()) {
            Account value = account.getValue();
            accounts++;
            balances += value.balance();
            openings += value.openingBalance();
            if (value.balance() != value.openingBalance() + applied.getOrDefault(account.getKey(), 0L)) {
                mismatched++;
            }
        }
        return new ServerState(accounts, balances, openings, rows, rejected, appliedSum, mismatched);
    }

    @Override
    public String describe() {
        HazelcastInstance member = cluster.member(0);
        return "Partita in-process, " + members + " member(s), Hazelcast " + member.getCluster().getClusterVersion()
                + ", backups " + member.getConfig().getMapConfig(AccountFeature.ACCOUNTS).getBackupCount() + ", CP "
                + (members >= 3 ? "Raft on 3" : "unsafe mode");
    }

    /** Member 0 of the cluster, for tests that change the grid behind the ledger's back. */
    HazelcastInstance member() {
        return cluster.member(0);
    }

    @Override
    public void close() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
