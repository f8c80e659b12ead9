package io.partita.transfer;

import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import io.partita.account.Account;
import io.partita.account.FakeLedgerHost;
import io.partita.account.JournalEntry;
import io.partita.account.Ledger;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.locking.FencedWrite;
import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The transfer and locking classes that cross the wire survive a trip through the node's serialization with Java
 * serialization refused (the registry's IdentifiedDataSerializable factory and Compact serializers): built with every
 * field set, each comes back with every field as it was, and behaves the same after it.
 */
class SerializationRoundTripTest {

    private final InternalSerializationService serialization = WireSerialization.withoutJava();

    private <T> T roundTrip(T value) {
        return WireSerialization.roundTrip(serialization, value);
    }

    @Test
    void shouldCarryTransfersAndTheirKeysInCompactForm() {
        Transfer transfer = Transfer.begin(new TransferRequest("x-1", "a", "b", 5), 7L, "m").debited(3)
                .refunding(9L, Transfer.BALANCE_LIMIT);
        Transfer rejected = Transfer.begin(new TransferRequest("x-2", "a", "b", 5), 7L, "m")
                .rejected(1L, Transfer.INSUFFICIENT_FUNDS);

        assertEquals(transfer, WireSerialization.roundTripEveryField(serialization, transfer));
        assertEquals(rejected, roundTrip(rejected));
        assertEquals(transfer.key(), WireSerialization.roundTripEveryField(serialization, transfer.key()));
        assertEquals("a", roundTrip(transfer.key()).getPartitionKey());
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(transfer).getType());
    }

    @Test
    void shouldBringBackEveryFieldOfTheTransferProcessorsAndTheFencedWrite() {
        Transfer transfer = Transfer.begin(new TransferRequest("x-1", "a", "b", 5), 7L, "m").debited(3)
                .refunding(9L, Transfer.BALANCE_LIMIT);
        JournalEntry entry = new JournalEntry("a-1", "t-1", TxType.CREDIT, 10, TxStatus.APPLIED, 20, 1L, 2, "b",
                true);
        for (Object value : List.of(new BeginTransfer(transfer), new AdvanceTransfer(transfer, 60_000),
                new FencedWrite(4, 3, entry))) {
            WireSerialization.roundTripEveryField(serialization, value);
        }
        // A transfer's replacement writes the member's disk itself (ReplaceTransfer.stored), never through the disk
        // map that a ReplaceValue may name.
        WireSerialization.roundTripEveryField(serialization, new ReplaceTransfer(transfer.key(), transfer, 60_000),
                "ReplaceValue.diskMap");
    }

    @Test
    void shouldCarryTheTransferProcessorsAndTheirBackups() {
        Transfer pending = Transfer.begin(new TransferRequest("x-1", "a", "b", 5), 7L, "m");
        Map.Entry<TransferKey, Transfer> entry = new AbstractMap.SimpleEntry<>(pending.key(), null);
        BeginTransfer begin = roundTrip(new BeginTransfer(pending));
        begin.process(entry);
        AdvanceTransfer advance = roundTrip(new AdvanceTransfer(pending.debited(0), 60_000));
        advance.process(entry);
        ReplaceTransfer backup = roundTrip((ReplaceTransfer) advance.getBackupProcessor());
        Map.Entry<TransferKey, Transfer> backupEntry = new AbstractMap.SimpleEntry<>(pending.key(), pending);
        backup.process(backupEntry);

        assertEquals(pending.debited(0), entry.getValue());
        assertEquals(entry.getValue(), backupEntry.getValue());
    }

    @Test
    void shouldCarryTheFencedWriteWithItsFenceAndBothAccounts() {
        Account read = Account.open(10, 0).withFence(4);
        JournalEntry credit = Ledger.decide("a-1", read, TxRequest.of("t-1", TxType.CREDIT, 10, 1L), id -> null)
                .recorded();
        FakeLedgerHost host = new FakeLedgerHost();
        FencedWrite stale = roundTrip(new FencedWrite(3, read.version(), credit)).on(host);
        FencedWrite current = roundTrip(new FencedWrite(4, read.version(), credit)).on(host);
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>("a-1", read);

        assertEquals("STALE_FENCE", stale.process(entry));
        assertEquals("WRITTEN", current.process(entry));
        assertEquals(read.record(credit).withFence(4), entry.getValue());
    }

}
