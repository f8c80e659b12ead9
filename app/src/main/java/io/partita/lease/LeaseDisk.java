package io.partita.lease;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.BackedUpCalls;
import io.partita.node.DiskRecords;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;

/**
 * Lease groups on each member's disk ({@link DiskRecords}), written by their calls ({@link LeaseCall}) on the disks of
 * the group's owner and backups and deleted from them with the group: what a group is (its shards and lease time) and
 * what keeps its fencing safe across a restart of the whole cluster (each shard's fencing token, and the numbering
 * of its workers), with its totals. Its workers, and which of them holds which shard, are not kept.
 *
 * <p>Why not the workers: a lease lasts 1 to 300 s and lives by its renewals, which fail while every node is down; a
 * worker that cannot renew must count its lease as ended once the lease time has passed, and a stop of every node
 * followed by recovery as a rule outlasts it. Keeping them would also mean writing the group (up to 10,000 shards) to
 * two disks at every renewal, the call that must stay cheapest; as it is, a renewal that changes nothing but its own
 * lease's end writes nothing. So a group comes back with no workers and every shard free: a worker's next renewal
 * answers 410 lease-lost and it joins again, as after any lost lease, and is granted shards with tokens above every
 * token granted before the stop, so a worker still acting on an old token fails the fence check. The numbering goes
 * on where it was, so a worker id from before the stop never names a new worker.
 *
 * <p>Recovery keeps the copy the cluster already holds (another disk's came first), as a split's merge keeps the
 * existing entry ({@link LeaseFeature}): every call that changed what is kept wrote it on owner and backups before it
 * answered, so a token any worker was told is on every disk that held the group at the time.
 */
final class LeaseDisk extends DiskRecords.Named<LeaseGroup> {

    static final LeaseDisk KIND = new LeaseDisk();

    private LeaseDisk() {
        super('l', LeaseFeature.LEASE_GROUPS);
    }


    @Override
    protected boolean writeValue(DataOutputStream out, LeaseGroup group) throws IOException {
        out.writeByte(1);
        group.writeKept(out);
        return true;
    }

    @Override
    protected LeaseGroup readValue(DataInputStream in) throws IOException {
        int format = in.readByte();
        if (format != 1) {
            throw new IOException("a lease group stored in an unknown format: " + format);
        }
        return LeaseGroup.readKept(in);
    }

    /** Each one unless the cluster holds the group already. */
    @Override
    protected void recover(HazelcastInstance member, Map<String, LeaseGroup> records) {
        records.forEach((name, group) -> BackedUpCalls.executeOnKey(member, LeaseFeature.LEASE_GROUPS, name,
                new RecoverGroup(group)));
    }
}
