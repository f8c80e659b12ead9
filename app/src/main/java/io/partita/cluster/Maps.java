package io.partita.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.transfer.Transfer;
import io.partita.transfer.TransferKey;

/** The names of the grid's data structures, configured in {@link HazelcastConfigs} and looked up only through here. */
public final class Maps {

    public static final String ACCOUNTS = "accounts";
    public static final String JOURNAL = "journal";
    /** The executor that runs batch slices on the members owning their accounts. */
    public static final String BATCH_EXECUTOR = "partita-batch";
    public static final String TRANSFERS = "transfers";

    private Maps() {
    }

    public static IMap<String, Account> accounts(HazelcastInstance hazelcast) {
        return hazelcast.getMap(ACCOUNTS);
    }

    public static IMap<JournalKey, JournalEntry> journal(HazelcastInstance hazelcast) {
        return hazelcast.getMap(JOURNAL);
    }

    public static IMap<TransferKey, Transfer> transfers(HazelcastInstance hazelcast) {
        return hazelcast.getMap(TRANSFERS);
    }
}
