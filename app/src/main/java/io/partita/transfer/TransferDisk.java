package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.BackedUpCalls;
import io.partita.node.DiskRecords;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;

/**
 * Unfinished transfers on each member's disk ({@link DiskRecords}): a transfer whose coordinator was stopped with the
 * rest of the cluster between its steps is found after the restart, and recovery finishes it (completes it, or
 * refunds the source). A finished transfer is not kept: its steps are in the accounts' journals, and a request sent
 * again with its id is answered from them.
 */
final class TransferDisk extends DiskRecords<TransferKey, Transfer> {

    static final TransferDisk KIND = new TransferDisk();
    /** A recovered transfer is unfinished; it gets the map's time to live only once it finishes. */
    private static final long UNUSED_TTL = 1;

    private TransferDisk() {
        super('t', TransferFeature.TRANSFERS);
    }

    @Override
    protected void writeKey(DataOutputStream out, TransferKey key) throws IOException {
        out.writeUTF(key.from());
        out.writeUTF(key.txId());
    }

    @Override
    protected TransferKey readKey(DataInputStream in) throws IOException {
        return new TransferKey(in.readUTF(), in.readUTF());
    }

    @Override
    protected boolean writeValue(DataOutputStream out, Transfer transfer) throws IOException {
        if (transfer.state().terminal()) {
            return false;
        }
        out.writeByte(1);
        out.writeUTF(transfer.txId());
        out.writeUTF(transfer.from());
        out.writeUTF(transfer.to());
        out.writeLong(transfer.amount());
        out.writeLong(transfer.at());
        out.writeUTF(transfer.state().name());
        writeNullable(out, transfer.fromBalance());
        writeNullable(out, transfer.toBalance());
        out.writeUTF(transfer.reason() == null ? "" : transfer.reason());
        out.writeUTF(transfer.coordinator());
        return true;
    }

    @Override
    protected Transfer readValue(DataInputStream in) throws IOException {
        int format = in.readByte();
        if (format != 1) {
            throw new IOException("a transfer stored in an unknown format: " + format);
        }
        String txId = in.readUTF();
        String from = in.readUTF();
        String to = in.readUTF();
        long amount = in.readLong();
        long at = in.readLong();
        TransferState state = TransferState.valueOf(in.readUTF());
        Long fromBalance = readNullable(in);
        Long toBalance = readNullable(in);
        String reason = in.readUTF();
        return new Transfer(txId, from, to, amount, at, state, fromBalance, toBalance,
                reason.isEmpty() ? null : reason, in.readUTF());
    }

    /** Each one moves the cluster's record forward to it, if the cluster's is not as far already. */
    @Override
    protected void recover(HazelcastInstance member, Map<TransferKey, Transfer> records) {
        records.forEach((key, transfer) -> BackedUpCalls.executeOnKey(member, TransferFeature.TRANSFERS, key,
                new AdvanceTransfer(transfer, UNUSED_TTL)));
    }

    private static void writeNullable(DataOutputStream out, Long value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeLong(value);
        }
    }

    private static Long readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }
}
