package io.partita.bench.store;

import io.partita.store.StoredEntry;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The journal as the store sees it: accounts spread over 271 partitions (account {@code n} in partition
 * {@code n mod 271}), each entry 80 bytes of payload (a journal record's type, amount, balance, time and reference),
 * txIds of 16 to 20 characters, written in per-partition batches.
 */
final class Workload {

    static final int PARTITIONS = 271;
    static final int PAYLOAD_BYTES = 80;

    private Workload() {
    }

    static String account(int n) {
        return "acct-" + n;
    }

    static int partitionOf(int account) {
        return account % PARTITIONS;
    }

    static String txId(int account, long seq) {
        return "tx-" + account + "-" + seq;
    }

    static StoredEntry entry(int account, long seq, long at) {
        byte[] payload = new byte[PAYLOAD_BYTES];
        byte[] text = (account + ":" + seq + ":" + at).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, payload, 0, Math.min(text.length, PAYLOAD_BYTES));
        return new StoredEntry(account(account), seq, txId(account, seq), at, payload);
    }

    /**
     * One partition's batch: {@code perAccount} new entries on each of {@code accounts} accounts of
     * {@code partition} (accounts {@code partition + k * 271}), with seqs from {@code firstSeq}.
     */
    static List<StoredEntry> batch(int partition, int accounts, int perAccount, long firstSeq, long at) {
        List<StoredEntry> batch = new ArrayList<>(accounts * perAccount);
        for (int k = 0; k < accounts; k++) {
            for (int i = 0; i < perAccount; i++) {
                batch.add(entry(partition + k * PARTITIONS, firstSeq + i, at));
            }
        }
        return batch;
    }
}
