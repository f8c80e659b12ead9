package io.partita.transfer;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.Map;

/** The backup half of the transfer processors: stores the record the primary computed, without deciding again. */
public final class ReplaceTransfer
        implements EntryProcessor<TransferKey, Transfer, Transfer>, IdentifiedDataSerializable {

    private Transfer transfer;

    public ReplaceTransfer() {
    }

    ReplaceTransfer(Transfer transfer) {
        this.transfer = transfer;
    }

    @Override
    public Transfer process(Map.Entry<TransferKey, Transfer> entry) {
        entry.setValue(transfer);
        return null;
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.REPLACE_TRANSFER;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeObject(transfer);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        transfer = in.readObject();
    }
}
