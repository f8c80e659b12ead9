package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.StreamSerializer;
import com.hazelcast.partition.PartitionAware;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The key of a journal entry. Its partition key is the account id, so an account and its whole journal always live
 * in one partition and migrate together; this is what lets the transaction entry processor look a txId up in its own
 * account's journal without leaving the partition thread.
 *
 * <p>Keys are most of a journal entry's cost on the heap (every key is kept serialized), so this one has a serializer
 * of its own ({@link Serializer}): two lengths and the two ids' bytes, 20 bytes for typical ids where a Compact key
 * takes 49. SQL reads it as a Java object ({@code keyFormat java}), whose fields it finds by name.
 */
public record JournalKey(String accountId, String txId) implements PartitionAware<String> {

    public JournalKey {
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(txId, "txId");
    }

    @Override
    public String getPartitionKey() {
        return accountId;
    }

    /** Writes a key as its ids' lengths (one byte each) and Latin-1 bytes. */
    public static final class Serializer implements StreamSerializer<JournalKey> {

        /** Hazelcast's type id for this serializer; user serializers take positive ids of their own. */
        public static final int TYPE_ID = 7_272;

        @Override
        public void write(ObjectDataOutput out, JournalKey key) throws IOException {
            byte[] account = Tail.bytes(key.accountId());
            byte[] txId = Tail.bytes(key.txId());
            out.writeByte(account.length);
            out.write(account);
            out.writeByte(txId.length);
            out.write(txId);
        }

        @Override
        public JournalKey read(ObjectDataInput in) throws IOException {
            return new JournalKey(readId(in), readId(in));
        }

        private static String readId(ObjectDataInput in) throws IOException {
            byte[] bytes = new byte[in.readUnsignedByte()];
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }

        @Override
        public int getTypeId() {
            return TYPE_ID;
        }
    }
}
