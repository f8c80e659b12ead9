package io.partita.transfer;

import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.partita.cluster.Serialization;

import java.util.List;

/**
 * How the transfer feature's classes cross the wire: Compact serializers for the record and its key (SQL would read
 * these field names; "from" and "to" are SQL keywords, so the fields are fromAccountId and toAccountId) and the
 * IdentifiedDataSerializable constructors for {@link Serialization}'s factory.
 */
public final class TransferSerialization {

    public static final String TRANSFER_TYPE = "partita.Transfer";
    public static final String TRANSFER_KEY_TYPE = "partita.TransferKey";

    private TransferSerialization() {
    }

    public static IdentifiedDataSerializable create(int typeId) {
        return switch (typeId) {
            case Serialization.BEGIN_TRANSFER -> new BeginTransfer();
            case Serialization.ADVANCE_TRANSFER -> new AdvanceTransfer();
            case Serialization.REPLACE_TRANSFER -> new ReplaceTransfer();
            case Serialization.TRANSFER_MERGE -> new TransferMergePolicy();
            default -> null;
        };
    }

    public static List<CompactSerializer<?>> compactSerializers() {
        return List.of(new TransferSerializer(), new TransferKeySerializer());
    }

    static final class TransferSerializer implements CompactSerializer<Transfer> {
        @Override
        public Transfer read(CompactReader reader) {
            return new Transfer(reader.readString("txId"), reader.readString("fromAccountId"),
                    reader.readString("toAccountId"), reader.readInt64("amount"), reader.readInt64("at"),
                    TransferState.valueOf(reader.readString("state")), reader.readNullableInt64("fromBalance"),
                    reader.readNullableInt64("toBalance"), reader.readString("reason"),
                    reader.readString("coordinator"));
        }

        @Override
        public void write(CompactWriter writer, Transfer transfer) {
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

        @Override
        public String getTypeName() {
            return TRANSFER_TYPE;
        }

        @Override
        public Class<Transfer> getCompactClass() {
            return Transfer.class;
        }
    }

    static final class TransferKeySerializer implements CompactSerializer<TransferKey> {
        @Override
        public TransferKey read(CompactReader reader) {
            return new TransferKey(reader.readString("fromAccountId"), reader.readString("txId"));
        }

        @Override
        public void write(CompactWriter writer, TransferKey key) {
            writer.writeString("fromAccountId", key.from());
            writer.writeString("txId", key.txId());
        }

        @Override
        public String getTypeName() {
            return TRANSFER_KEY_TYPE;
        }

        @Override
        public Class<TransferKey> getCompactClass() {
            return TransferKey.class;
        }
    }
}
