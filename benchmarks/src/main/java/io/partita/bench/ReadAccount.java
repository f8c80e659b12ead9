package io.partita.bench;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.Account;

import java.util.Map;

/**
 * The {@code EP_NOOP} reference: an entry processor that reads the account and changes nothing, so it has no backup.
 * What it costs is what any entry processor costs before it does any work: the invocation to the owner, the partition
 * thread, the record lookup and the answer. Registered under the benchmarks' own factory ({@link BenchSerialization}).
 */
final class ReadAccount implements EntryProcessor<String, Account, Long>, IdentifiedDataSerializable {

    static final int CLASS_ID = 1;

    @Override
    public Long process(Map.Entry<String, Account> entry) {
        Account account = entry.getValue();
        return account == null ? null : account.balance();
    }

    @Override
    public EntryProcessor<String, Account, Long> getBackupProcessor() {
        return null;
    }

    @Override
    public int getFactoryId() {
        return BenchSerialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return CLASS_ID;
    }

    @Override
    public void writeData(ObjectDataOutput out) {
    }

    @Override
    public void readData(ObjectDataInput in) {
    }
}
