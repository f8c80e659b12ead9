package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import io.partita.node.Identified;

/**
 * An entry processor that writes accounts through its own {@link LedgerWrites}: the member it lands on is injected
 * into that ledger, and its backup processor is the {@link AccountBackup} of what it wrote, so every writer of the
 * ledger backs up the same way. A subclass decides in {@code process} and names its class id and wire form.
 * <b>Threads:</b> the member is injected on the thread that deserializes the processor, before it runs;
 * {@code process} and {@link #getBackupProcessor()} run on the partition thread of each entry, several at once for an
 * {@code executeOnKeys} ({@link LedgerWrites} keeps what each thread wrote apart).
 *
 * @param <R> what {@code process} answers for each entry
 * @param <P> the subclass itself, so that {@link #on} answers it
 */
public abstract class LedgerProcessor<R, P extends LedgerProcessor<R, P>>
        implements EntryProcessor<String, Account, R>, Identified, HazelcastInstanceAware {

    /** Where this instance reads and writes the ledger; not on the wire (the member is injected on arrival). */
    protected final transient LedgerWrites ledger = new LedgerWrites();

    /** For tests: runs against a host of the caller's (a view of the member) instead of a member's. */
    @SuppressWarnings("unchecked")
    public final P on(LedgerHost host) {
        ledger.attach(host);
        return (P) this;
    }

    @Override
    public final EntryProcessor<String, Account, R> getBackupProcessor() {
        return ledger.backup();
    }

    @Override
    public final void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        ledger.attach(hazelcastInstance);
    }
}
