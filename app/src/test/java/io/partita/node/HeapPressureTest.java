package io.partita.node;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When the heap counts as nearly full: the level a young collection leaves includes the old generation's garbage, so
 * once a collection of the old generation has measured it, a young one can only lower the level, never raise it; the
 * node refuses work on what mixed and full collections find live, not on garbage waiting for them.
 */
class HeapPressureTest {

    @Test
    void shouldTakeEveryCollectionsLevelUntilTheOldGenerationIsFirstCollected() {
        HeapPressure heap = HeapPressure.detached();
        heap.level(0.40, false);
        assertEquals(0.40, heap.afterLastCollection());
        heap.level(0.90, false);
        assertTrue(heap.pressed(), "no old collection yet: a young one's level is all there is");
        heap.level(0.30, true);
        assertFalse(heap.pressed());
        assertEquals(0.30, heap.afterLastCollection());
    }

    @Test
    void shouldNotRefuseOnOldGarbageThatYoungCollectionsLeave() {
        HeapPressure heap = HeapPressure.detached();
        heap.level(0.30, true);
        heap.level(0.88, false);
        heap.level(0.95, false);
        assertFalse(heap.pressed(), "garbage in the old generation is not pressure");
        assertEquals(0.30, heap.afterLastCollection());
        heap.level(0.20, false);
        assertEquals(0.20, heap.afterLastCollection(), "any collection that leaves less lowers the level");
    }

    @Test
    void shouldRefuseWhenAMixedOrFullCollectionLeavesTheHeapNearlyFullAndTakeWorkOnceOneLeavesLess() {
        HeapPressure heap = HeapPressure.detached();
        heap.level(0.30, true);
        heap.level(0.90, true);
        assertTrue(heap.pressed());
        heap.level(0.92, false);
        assertTrue(heap.pressed());
        heap.level(0.70, false);
        assertFalse(heap.pressed(), "a young collection that leaves less than the limit in use ends the refusal");
        heap.level(0.86, true);
        assertTrue(heap.pressed());
    }
}
