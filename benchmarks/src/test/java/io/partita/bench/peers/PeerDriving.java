package io.partita.bench.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Posts a fixed number of transactions per client thread against an opened ledger, keeping the clients' tally. */
final class PeerDriving {

    private PeerDriving() {
    }

    /**
     * {@code threads} clients at once, {@code perThread} transactions each, {@link Mix} with 55% debits and the given
     * share of repeats; returns once every client is done and its session closed.
     */
    static Tally drive(PeerLedger ledger, int accounts, int threads, int perThread, double repeatShare)
            throws Exception {
        Tally tally = new Tally();
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                PeerLedger.Session session = ledger.session(i);
                Mix mix = new Mix("c" + i + "-", accounts, 0.55, repeatShare, i);
                done.add(clients.submit(() -> {
                    try (session) {
                        for (int n = 0; n < perThread; n++) {
                            Tx tx = mix.next();
                            Answer answer = session.post(tx);
                            if (mix.isRepeat()) {
                                tally.repeat(tx, answer, mix.firstAnswer());
                            } else {
                                tally.first(tx, answer);
                                mix.answered(tx, answer);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            clients.shutdownNow();
        }
        return tally;
    }
}
