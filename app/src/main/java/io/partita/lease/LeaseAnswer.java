package io.partita.lease;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.List;

/**
 * What a lease call answers, from the group's partition thread to the node that asked: how it went, the worker's
 * shards and lease, what the call changed (for the node's meters) and, for a fence check, whether the token is
 * current. Serialized as IdentifiedDataSerializable.
 */
@ClassId(102)
public final class LeaseAnswer implements FieldList {

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
    public void fields(Fields fields) throws IOException {
        status = fields.ordinal(status, Status.values());
        workerId = fields.string(workerId);
        leaseMillis = fields.int64(leaseMillis);
        grants = List.copyOf(fields.list(grants, (out, grant) -> {
            out.writeInt(grant.shard());
            out.writeLong(grant.token());
        }, in -> new LeaseGroup.Grant(in.readInt(), in.readLong())));
        changes = fields.value(changes, (out, c) -> {
            out.writeInt(c.grants());
            out.writeInt(c.moves());
            out.writeInt(c.expiries());
        }, in -> new LeaseGroup.Changes(in.readInt(), in.readInt(), in.readInt()));
        currentToken = fields.int64(currentToken);
    }
}
