package io.partita.account;

import com.hazelcast.spi.merge.MergingEntry;
import io.partita.node.ClassId;
import io.partita.node.PartitionSentinels;

/**
 * How the journal merges after a network split heals. The side merged into keeps its entries. The other side's
 * entries are taken only into a partition this side lost (no copy of it was on this side, so the other side's journal
 * is the only one): elsewhere, what the other side recorded after the split is still in its accounts' tails and joins
 * this side's accounts through {@link AccountMergePolicy}, with seqs that follow this side's; taking its journal
 * entries too would give one seq to two entries.
 * Runs on the partition thread of the entry's owner in the merged cluster, once per entry the smaller
 * side brings; the member is injected before each call.
 */
@ClassId(11)
public final class JournalMergePolicy extends MemberMergePolicy<JournalRecord> {

    @Override
    public Object merge(MergingEntry<Object, JournalRecord> merging, MergingEntry<Object, JournalRecord> existing) {
        if (existing != null && existing.getRawValue() != null) {
            return existing.getRawValue();
        }
        int partition = partitionOf(merging.getKey());
        return PartitionSentinels.of(hazelcast).lost(partition) ? merging.getRawValue() : null;
    }
}
