package io.partita.lease;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.Identified;
import io.partita.node.Wire;

import java.io.IOException;
import java.util.List;

/**
 * What a lease call answers, from the group's partition thread to the node that asked: how it went, the worker's
 * shards and lease, what the call changed (for the node's meters) and, for a fence check, whether the token is
 * current. Serialized as IdentifiedDataSerializable.
 */
public final class LeaseAnswer implements Identified {

    enum Status { OK, CREATED, CONFLICT, NO_GROUP, UNKNOWN_WORKER }

    private Status status;
    private String workerId;
    private long leaseMillis;
    private List<LeaseGroup.Grant> grants;
    private LeaseGroup.Changes changes;
    private long currentToken;

    public LeaseAnswer() {
    }

    LeaseAnswer(Status status, String workerId, long leaseMillis, List<LeaseGroup.Grant> grants,
                LeaseGroup.Changes changes, long currentToken) {
        this.status = status;
        this.workerId = workerId;
        this.leaseMillis = leaseMillis;
        this.grants = List.copyOf(grants);
        this.changes = changes;
        this.currentToken = currentToken;
    }

    static LeaseAnswer of(Status status) {
        return new LeaseAnswer(status, null, 0, List.of(), new LeaseGroup.Changes(0, 0, 0), -1);
    }

    Status status() {
        return status;
    }

    String workerId() {
        return workerId;
    }

    long leaseMillis() {
        return leaseMillis;
    }

    List<LeaseGroup.Grant> grants() {
        return grants;
    }

    LeaseGroup.Changes changes() {
        return changes;
    }

    /** The shard's current token for a fence check (-1 when nobody holds it). */
    long currentToken() {
        return currentToken;
    }

    @Override
    public int getClassId() {
        return LeaseFeature.LEASE_ANSWER;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeByte(status.ordinal());
        out.writeString(workerId);
        out.writeLong(leaseMillis);
        Wire.writeList(out, grants, (o, grant) -> {
            o.writeInt(grant.shard());
            o.writeLong(grant.token());
        });
        out.writeInt(changes.grants());
        out.writeInt(changes.moves());
        out.writeInt(changes.expiries());
        out.writeLong(currentToken);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        status = Status.values()[in.readByte()];
        workerId = in.readString();
        leaseMillis = in.readLong();
        grants = List.copyOf(Wire.readList(in, i -> new LeaseGroup.Grant(i.readInt(), i.readLong())));
        changes = new LeaseGroup.Changes(in.readInt(), in.readInt(), in.readInt());
        currentToken = in.readLong();
    }
}
