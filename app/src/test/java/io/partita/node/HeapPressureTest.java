package io.partita.node;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live heap that decides refusals is what survives a collection of the old generation, not what a young collection
 * leaves with the old generation's garbage still in it.
 */
class HeapPressureTest {

    @Test
    void shouldTakeEachCollectionsLevelUntilTheOldGenerationIsFirstCollected() {
        HeapPressure.Levels levels = new HeapPressure.Levels();

        levels.collected(0.30, false);
        levels.collected(0.45, false);

        assertEquals(0.45, levels.live());
        assertEquals(0.45, levels.afterLast());
    }

    @Test
    void shouldNotCountOldGarbageThatYoungCollectionsLeaveAsLive() {
        HeapPressure.Levels levels = new HeapPressure.Levels();
        levels.collected(0.62, false);
        levels.collected(0.27, true);

        // Young collections promote; the old generation's garbage gathers until the next cycle.
        levels.collected(0.48, false);
        levels.collected(0.76, false);

        assertEquals(0.27, levels.live());
        assertEquals(0.76, levels.afterLast());
    }

    @Test
    void shouldTakeTheLevelOfEachOldGenerationCollectionEvenWhenHigher() {
        HeapPressure.Levels levels = new HeapPressure.Levels();
        levels.collected(0.27, true);
        levels.collected(0.70, false);

        levels.collected(0.90, true);

        assertEquals(0.90, levels.live());
        assertTrue(levels.live() > HeapPressure.REFUSE_ABOVE);
    }

    @Test
    void shouldLowerTheLiveLevelWhenAYoungCollectionLeavesLessInUse() {
        HeapPressure.Levels levels = new HeapPressure.Levels();
        levels.collected(0.60, true);

        levels.collected(0.40, false);
        levels.collected(0.55, false);

        assertEquals(0.40, levels.live());
    }

    @Test
    void shouldKnowTheOldGenerationPoolsOfTheJdksCollectors() {
        assertTrue(HeapPressure.isOldPool("G1 Old Gen"));
        assertTrue(HeapPressure.isOldPool("PS Old Gen"));
        assertTrue(HeapPressure.isOldPool("Tenured Gen"));
        assertFalse(HeapPressure.isOldPool("G1 Eden Space"));
        assertFalse(HeapPressure.isOldPool("ZHeap"));
    }
}
