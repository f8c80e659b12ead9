package io.partita.account;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.Map;

/** Stores a new account unless the id is taken; answers whether it did. Runs on the owner's partition thread. */
public final class OpenAccount implements EntryProcessor<String, Account, Boolean>, IdentifiedDataSerializable {

    private Account account;
    private transient boolean opened;

    public OpenAccount() {
    }

    OpenAccount(Account account) {
        this.account = account;
    }

    @Override
    public Boolean process(Map.Entry<String, Account> entry) {
        if (entry.getValue() != null) {
            return false;
        }
        entry.setValue(account);
        opened = true;
        return true;
    }

    @Override
    public EntryProcessor<String, Account, Boolean> getBackupProcessor() {
        return opened ? new ReplaceAccount<>(account) : null;
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.OPEN_ACCOUNT;
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
