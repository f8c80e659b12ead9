package io.partita.account;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The tail's encoding, which members' disks also keep: its bytes, its limits on ids, and the walks over it. */
class TailTest {

    private static JournalEntry entry(String txId, long amount, long balanceAfter, long at, String ref) {
        return new JournalEntry("acc", txId, TxType.CREDIT, amount, TxStatus.APPLIED, balanceAfter, at, 0, ref);
    }

    @Test
    void shouldEncodeAnEntryAsTheDisksHaveAlwaysKeptIt() {
        byte[] expected = {2, 3, 't', '-', '1', (byte) 0xAC, 0x02, (byte) 0xA8, 0x14, 5, 0};

        assertArrayEquals(expected, Tail.encode(entry("t-1", 300, 1_300, 5, null)),
                "kind, txId, amount, zigzag balance and at as varints, no ref");
        assertArrayEquals(expected, Tail.append(Tail.EMPTY, entry("t-1", 300, 1_300, 5, null)));
    }

    @Test
    void shouldAppendAnEntryAsItsEncodingAndReadItBack() {
        JournalEntry first = entry("t-1", 300, 1_300, 5, null);
        JournalEntry second = new JournalEntry("acc", "t-2", TxType.TRANSFER_OUT, 70, TxStatus.REJECTED, -1_230,
                1_795_877_134_949L, 0, "transfer-9", true);
        byte[] tail = Tail.append(Tail.encode(first), second);

        assertArrayEquals(Tail.encode(List.of(first, second)), tail);
        assertArrayEquals(Tail.append(Tail.encode(first), Tail.encode(second)), tail);
        List<JournalEntry> read = Tail.entries("acc", tail, 8);
        assertEquals(List.of(withSeq(first, 7), withSeq(second, 8)), read);
    }

    @Test
    void shouldRefuseIdsTheEncodingCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> Tail.encode(entry("", 1, 1, 1, null)), "empty");
        assertThrows(IllegalArgumentException.class, () -> Tail.encode(entry("t-\u0100", 1, 1, 1, null)),
                "not Latin-1");
        assertThrows(IllegalArgumentException.class, () -> Tail.append(Tail.EMPTY,
                entry("t", 1, 1, 1, "r".repeat(Tail.MAX_ID_LENGTH + 1))), "longer than a length byte");
        assertEquals(Tail.MAX_ID_LENGTH + 7, Tail.encode(entry("x".repeat(Tail.MAX_ID_LENGTH), 1, 1, 1, "\u00ff"))
                .length, "the longest id, and a Latin-1 one");
    }

    @Test
    void shouldCountTheEntriesLeavingAsItNamesThem() {
        byte[] tail = Tail.encode(List.of(entry("a", 1, 1, 10, null), entry("b", 1, 2, 20, null),
                entry("c", 1, 3, 30, null), entry("d", 1, 4, 40, null)));

        assertEquals(List.of("a", "b"), Tail.leaving(tail, Tail.size(tail), 25, 4), "recorded before the cutoff");
        assertEquals(List.of("a", "b", "c"), Tail.leaving(tail, Tail.size(tail), 25, 1), "beyond the newest one");
        assertEquals(List.of(), Tail.leaving(tail, Tail.size(tail), 5, 4));
        for (long cutoff : new long[]{5, 15, 25, 45}) {
            for (int atMost = 0; atMost <= 5; atMost++) {
                assertEquals(Tail.leaving(tail, Tail.size(tail), cutoff, atMost).size(),
                        Tail.leavingCount(tail, Tail.size(tail), cutoff, atMost));
            }
        }
    }

    private static JournalEntry withSeq(JournalEntry entry, long seq) {
        return new JournalEntry(entry.accountId(), entry.txId(), entry.type(), entry.amount(), entry.status(),
                entry.balanceAfter(), entry.at(), seq, entry.ref(), entry.merged());
    }
}
