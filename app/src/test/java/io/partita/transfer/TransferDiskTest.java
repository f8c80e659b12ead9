package io.partita.transfer;

import io.partita.store.StoredRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An unfinished transfer as the disk keeps it comes back field for field; a finished one is not kept. */
class TransferDiskTest {

    @Test
    void shouldReadBackAnUnfinishedTransferAndDropAFinishedOne() throws IOException {
        TransferKey key = new TransferKey("from-1", "t-7");
        Transfer debited = new Transfer("t-7", "from-1", "to-2", 250, 1_000, TransferState.DEBITED, 750L, null, null,
                "node-a");

        StoredRecord record = TransferDisk.KIND.record(key, debited);
        assertTrue(TransferDisk.KIND.owns(record.key()));
        byte[] keyBytes = Arrays.copyOfRange(record.key(), 1, record.key().length);
        assertEquals(key, TransferDisk.KIND.readKey(new DataInputStream(new ByteArrayInputStream(keyBytes))));
        assertEquals(debited, TransferDisk.KIND.readValue(new DataInputStream(new ByteArrayInputStream(
                record.value()))));

        Transfer completed = new Transfer("t-7", "from-1", "to-2", 250, 1_000, TransferState.COMPLETED, 750L, 1_250L,
                null, "node-a");
        assertNull(TransferDisk.KIND.record(key, completed).value(), "a finished transfer is deleted from the disk");
    }
}
