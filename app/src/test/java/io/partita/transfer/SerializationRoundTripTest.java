package io.partita.transfer;

import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.partita.account.Account;
import io.partita.locking.FencedWrite;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.AbstractMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The transfer and locking classes that cross the wire survive a trip through the member's own serialization (the
 * registry's IdentifiedDataSerializable factory and Compact serializers), and behave the same after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SerializationRoundTripTest {

    private TestCluster cluster;
    private InternalSerializationService serialization;

    @BeforeAll
    void start() {
        cluster = TestCluster.start(1);
        serialization = (InternalSerializationService)
                ((SerializationServiceSupport) cluster.member(0)).getSerializationService();
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    private <T> T roundTrip(T value) {
        return serialization.toObject(serialization.toData(value));
    }

    @Test
    void shouldCarryTransfersAndTheirKeysInCompactForm() {
        Transfer transfer = Transfer.begin(new TransferRequest("x-1", "a", "b", 5), 7L, "m").debited(3)
                .refunding(9);
        Transfer rejected = Transfer.begin(new TransferRequest("x-2", "a", "b", 5), 7L, "m")
                .rejected(1, Transfer.INSUFFICIENT_FUNDS);

        assertEquals(transfer, roundTrip(transfer));
        assertEquals(rejected, roundTrip(rejected));
        assertEquals(transfer.key(), roundTrip(transfer.key()));
        assertEquals("a", roundTrip(transfer.key()).getPartitionKey());
    }

    @Test
    void shouldCarryTheTransferProcessorsAndTheirBackups() {
        Transfer pending = Transfer.begin(new TransferRequest("x-1", "a", "b", 5), 7L, "m");
        Map.Entry<TransferKey, Transfer> entry = new AbstractMap.SimpleEntry<>(pending.key(), null);
        BeginTransfer begin = roundTrip(new BeginTransfer(pending));
        begin.process(entry);
        AdvanceTransfer advance = roundTrip(new AdvanceTransfer(pending.debited(0)));
        advance.process(entry);
        ReplaceTransfer backup = roundTrip((ReplaceTransfer) advance.getBackupProcessor());
        Map.Entry<TransferKey, Transfer> backupEntry = new AbstractMap.SimpleEntry<>(pending.key(), pending);
        backup.process(backupEntry);

        assertEquals(pending.debited(0), entry.getValue());
        assertEquals(entry.getValue(), backupEntry.getValue());
    }

    @Test
    void shouldCarryTheFencedWriteWithItsFenceAndBothAccounts() {
        Account read = Account.open("a-1", 10, 0).withFence(4);
        FencedWrite stale = roundTrip(new FencedWrite(3, read, read));
        FencedWrite current = roundTrip(new FencedWrite(4, read, Account.open("a-1", 20, 0)));
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>("a-1", read);

        assertEquals("STALE_FENCE", stale.process(entry));
        assertEquals("WRITTEN", current.process(entry));
        assertEquals(Account.open("a-1", 20, 0).withFence(4), entry.getValue());
    }
}
