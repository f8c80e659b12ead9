package io.partita.transfer;

import com.hazelcast.config.Config;
import com.hazelcast.config.IndexConfig;
import com.hazelcast.config.IndexType;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.partita.node.CompactCodec;
import io.partita.node.DiskRecords;
import io.partita.node.Feature;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.function.Supplier;

/**
 * The transfer feature's part of a member: the transfers map (found by state for recovery, merged by state), Compact
 * serializers for the record and its key (SQL would read these field names; "from" and "to" are SQL keywords, so the
 * fields are fromAccountId and toAccountId) and the classes of its block of ids.
 */
@Singleton
public final class TransferFeature implements Feature {

    public static final String TRANSFERS = "transfers";
    public static final String TRANSFER_TYPE = "partita.Transfer";
    public static final String TRANSFER_KEY_TYPE = "partita.TransferKey";

    public static IMap<TransferKey, Transfer> transfers(HazelcastInstance hazelcast) {
        return hazelcast.getMap(TRANSFERS);
    }

    @Override
    public List<Supplier<? extends IdentifiedDataSerializable>> classes() {
        return List.of(BeginTransfer::new, AdvanceTransfer::new, ReplaceTransfer::new, TransferMergePolicy::new);
    }

    /**
     * A transfer's record, found by state for recovery. Its time to live is set per entry by the transfer processors:
     * none while unfinished, the journal retention plus an hour once finished. Records merge by state: the further
     * side's record of a transfer is kept.
     */
    @Override
    public void configure(Config config, Setup setup) {
        config.addMapConfig(setup.protectedMap(TRANSFERS, TransferMergePolicy.class)
                .addIndexConfig(new IndexConfig(IndexType.HASH, "state")));
        config.getSerializationConfig().getCompactSerializationConfig()
                .addSerializer(TRANSFER_CODEC)
                .addSerializer(TRANSFER_KEY_CODEC);
        DiskRecords.register(config, TransferDisk.KIND);
    }

    static final CompactCodec<Transfer> TRANSFER_CODEC = CompactCodec.of(TRANSFER_TYPE,
            Transfer.class, TransferFeature::readTransfer, TransferFeature::writeTransfer,
            Transfer.begin(new TransferRequest("sample", "a", "b", 1), 0, "sample"));

    private static Transfer readTransfer(CompactReader reader) {
        return new Transfer(reader.readString("txId"), reader.readString("fromAccountId"),
                reader.readString("toAccountId"), reader.readInt64("amount"), reader.readInt64("at"),
                TransferState.valueOf(reader.readString("state")), reader.readNullableInt64("fromBalance"),
                reader.readNullableInt64("toBalance"), reader.readString("reason"),
                reader.readString("coordinator"));
    }

    private static void writeTransfer(CompactWriter writer, Transfer transfer) {
        writer.writeString("txId", transfer.txId());
        writer.writeString("fromAccountId", transfer.from());
        writer.writeString("toAccountId", transfer.to());
        writer.writeInt64("amount", transfer.amount());
        writer.writeInt64("at", transfer.at());
        writer.writeString("state", transfer.state().name());
        writer.writeNullableInt64("fromBalance", transfer.fromBalance());
        writer.writeNullableInt64("toBalance", transfer.toBalance());
        writer.writeString("reason", transfer.reason());
        writer.writeString("coordinator", transfer.coordinator());
    }

    static final CompactCodec<TransferKey> TRANSFER_KEY_CODEC = CompactCodec.of(TRANSFER_KEY_TYPE,
            TransferKey.class, TransferFeature::readTransferKey, TransferFeature::writeTransferKey,
            new TransferKey("a", "sample"));

    private static TransferKey readTransferKey(CompactReader reader) {
        return new TransferKey(reader.readString("fromAccountId"), reader.readString("txId"));
    }

    private static void writeTransferKey(CompactWriter writer, TransferKey key) {
        writer.writeString("fromAccountId", key.from());
        writer.writeString("txId", key.txId());
    }
}
