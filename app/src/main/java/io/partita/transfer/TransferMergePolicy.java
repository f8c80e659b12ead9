package io.partita.transfer;

import com.hazelcast.spi.merge.MergingValue;
import io.partita.node.ClassId;
import io.partita.node.ValueMergePolicy;

/**
 * How transfer records merge after a network split heals: by state. A transfer only moves forward, so of the two
 * sides' records of one transfer the further one is kept (a side that saw the source debited keeps that over one that
 * saw it pending), and on a tie the side merged into keeps its own. A record only one side holds is taken. The steps
 * themselves are entries in the two accounts' tails, which merge as every other transaction does; the recovery pass
 * drives a kept record that is not finished from its steps, each replayed by its derived id.
 * Runs on the partition thread of the record's owner in the merged cluster, once per record the
 * smaller side brings. A plain function of the two values: no member, no clock.
 */
@ClassId(23)
public final class TransferMergePolicy extends ValueMergePolicy<Transfer, MergingValue<Transfer>> {

    @Override
    protected Transfer join(Transfer theirs, Transfer ours) {
        return theirs.state().rank() > ours.state().rank() ? theirs : ours;
    }
}
