package io.partita.account;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.Map;

/**
 * The backup half of {@link ApplyTransaction}: it carries the account the primary computed and stores it as it is,
 * so a backup never re-decides and can never disagree with its primary.
 */
public final class ReplaceAccount<R> implements EntryProcessor<String, Account, R>, IdentifiedDataSerializable {

    private Account account;

    public ReplaceAccount() {
    }

    public ReplaceAccount(Account account) {
        this.account = account;
    }

    @Override
    public R process(Map.Entry<String, Account> entry) {
        entry.setValue(account);
        return null;
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.REPLACE_ACCOUNT;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeObject(account);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        account = in.readObject();
    }
}
