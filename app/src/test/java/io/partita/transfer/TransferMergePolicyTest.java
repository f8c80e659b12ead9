package io.partita.transfer;

import org.junit.jupiter.api.Test;

import static io.partita.support.Merging.side;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The transfers map's merge after a network split, as a function of the two sides' records. */
class TransferMergePolicyTest {

    private final TransferMergePolicy policy = new TransferMergePolicy();
    private final Transfer pending = Transfer.begin(new TransferRequest("t-1", "a", "b", 100), 1L, "node-1");
    private final Transfer debited = pending.debited(900);
    private final Transfer completed = debited.completed(1_100);

    @Test
    void shouldKeepTheSideThatGotFurther() {
        assertSame(debited, policy.merge(side(debited), side(pending)), "the other side saw the source debited");
        assertSame(completed, policy.merge(side(debited), side(completed)), "this side saw it completed");
    }

    @Test
    void shouldKeepThisSidesRecordOnATieAndTakeARecordOnlyTheOtherSideHas() {
        Transfer ours = debited;
        Transfer theirs = pending.debited(900);
        assertSame(ours, policy.merge(side(theirs), side(ours)));
        assertSame(pending, policy.merge(side(pending), null));
    }
}
