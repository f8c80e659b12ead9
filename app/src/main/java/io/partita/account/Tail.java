package io.partita.account;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An account's tail: the entries recorded on it that the journal may not hold yet, oldest first, packed into one
 * byte array that lives inside the account's value. The tail is what makes a transaction one replicated write (the
 * entry rides in the account's own operation) and what a split-brain merge unions.
 * These are pure functions, and a tail is never changed in place (every operation returns a new array), so a reader
 * on another thread (a query, a migration) always sees a whole one.
 *
 * <p>Entries are contiguous: the last one has the account's version as its seq, each earlier one the seq before.
 * So a seq is never stored. One entry is
 * {@code kind(1) txIdLength(1) txId amount(varint) balanceAfter(zigzag varint) at(varint) refLength(1) ref}, where
 * kind is {@code type << 1 | status} and a ref of length 0 is none. A debit of a few hundred with a 10-character txId
 * takes about 25 bytes.
 */
public final class Tail {

    public static final byte[] EMPTY = new byte[0];
    /** Ids travel as one byte of length each; API ids are at most 64 characters, derived ones (transfer steps) 141. */
    static final int MAX_ID_LENGTH = 255;
    private static final TxType[] TYPES = TxType.values();
    /** The highest bit of a kind: the entry came from the other side of a network split (AccountUnion). */
    private static final int MERGED = 0x80;
    private static final TxStatus[] STATUSES = TxStatus.values();

    private Tail() {
    }

    /** The entries of {@code tail}, oldest first, as the account {@code accountId} at {@code version} holds them. */
    public static List<JournalEntry> entries(String accountId, byte[] tail, long version) {
        List<JournalEntry> entries = new ArrayList<>();
        Reader reader = new Reader(tail);
        while (reader.more()) {
            entries.add(reader.next(accountId, 0));
        }
        long seq = version - entries.size();
        for (int i = 0; i < entries.size(); i++) {
            JournalEntry entry = entries.get(i);
            entries.set(i, new JournalEntry(accountId, entry.txId(), entry.type(), entry.amount(), entry.status(),
                    entry.balanceAfter(), entry.at(), ++seq, entry.ref(), entry.merged()));
        }
        return entries;
    }

    /**
     * The newest {@code count} entries of {@code tail} (fewer if it holds fewer), oldest first, as the account
     * {@code accountId} at {@code version} holds them; the older ones are skipped, not decoded.
     */
    public static List<JournalEntry> newest(String accountId, byte[] tail, long version, int count) {
        int size = size(tail);
        int skip = Math.max(0, size - count);
        Reader reader = new Reader(tail);
        for (int i = 0; i < skip; i++) {
            reader.skip();
        }
        List<JournalEntry> entries = new ArrayList<>(size - skip);
        long seq = version - (size - skip);
        while (reader.more()) {
            JournalEntry entry = reader.next(accountId, 0);
            entries.add(new JournalEntry(accountId, entry.txId(), entry.type(), entry.amount(), entry.status(),
                    entry.balanceAfter(), entry.at(), ++seq, entry.ref(), entry.merged()));
        }
        return entries;
    }

    /** How many entries {@code tail} holds. */
    public static int size(byte[] tail) {
        int count = 0;
        Reader reader = new Reader(tail);
        while (reader.more()) {
            reader.skip();
            count++;
        }
        return count;
    }

    /**
     * The entry recorded under {@code txId}, or null. Compares raw bytes, so a miss decodes nothing; entries are
     * scanned newest last, which is fine for tails of a few dozen entries (the journal writer keeps them short).
     */
    public static JournalEntry find(String accountId, byte[] tail, long version, String txId) {
        byte[] wanted = bytes(txId);
        Reader reader = new Reader(tail);
        int index = 0;
        int found = -1;
        JournalEntry match = null;
        while (reader.more()) {
            if (reader.txIdEquals(wanted)) {
                match = reader.next(accountId, 0);
                found = index;
            } else {
                reader.skip();
            }
            index++;
        }
        if (match == null) {
            return null;
        }
        long seq = version - (index - 1 - found);
        return new JournalEntry(accountId, match.txId(), match.type(), match.amount(), match.status(),
                match.balanceAfter(), match.at(), seq, match.ref(), match.merged());
    }

    /**
     * The txIds of the oldest entries of {@code tail} ({@code size} entries: the caller has counted them) that may
     * leave it, oldest first: each one recorded before {@code recordedBefore}, or beyond the newest {@code atMost}
     * entries. Stops at the first one that must stay.
     */
    public static List<String> leaving(byte[] tail, int size, long recordedBefore, int atMost) {
        List<String> ids = new ArrayList<>();
        walkLeaving(tail, size, recordedBefore, atMost, ids);
        return ids;
    }

    /**
     * How many entries {@link #leaving} answers, without making their txIds: the write path asks on every write.
     */
    public static int leavingCount(byte[] tail, int size, long recordedBefore, int atMost) {
        return walkLeaving(tail, size, recordedBefore, atMost, null);
    }

    private static int walkLeaving(byte[] tail, int size, long recordedBefore, int atMost, List<String> ids) {
        int excess = size - atMost;
        int count = 0;
        Reader reader = new Reader(tail);
        while (reader.more()) {
            if (reader.at() >= recordedBefore && count >= excess) {
                break;
            }
            if (ids != null) {
                ids.add(reader.txId());
            }
            reader.skip();
            count++;
        }
        return count;
    }

    /** {@code tail} with {@code encoded} (entries as {@link #encode} writes them) added at the end. */
    public static byte[] append(byte[] tail, byte[] encoded) {
        if (tail.length == 0) {
            return encoded;
        }
        byte[] next = Arrays.copyOf(tail, tail.length + encoded.length);
        System.arraycopy(encoded, 0, next, tail.length, encoded.length);
        return next;
    }

    /** {@code tail} with {@code entry} added at the end, encoded straight into the new array (one allocation). */
    public static byte[] append(byte[] tail, JournalEntry entry) {
        byte[] next = Arrays.copyOf(tail, tail.length + encodedSize(entry));
        write(next, tail.length, entry);
        return next;
    }

    /**
     * {@code tail} of an account at {@code version} without its entries up to and including seq {@code through}:
     * those the journal holds.
     */
    public static byte[] trimThrough(byte[] tail, long version, long through) {
        int size = size(tail);
        long oldestSeq = version - size + 1;
        int drop = (int) Math.min(size, Math.max(0, through - oldestSeq + 1));
        if (drop == 0) {
            return tail;
        }
        if (drop == size) {
            return EMPTY;
        }
        Reader reader = new Reader(tail);
        for (int i = 0; i < drop; i++) {
            reader.skip();
        }
        return Arrays.copyOfRange(tail, reader.position, tail.length);
    }

    /** The at of the oldest entry, or {@link Long#MAX_VALUE} for an empty tail. */
    public static long oldestAt(byte[] tail) {
        if (tail.length == 0) {
            return Long.MAX_VALUE;
        }
        return new Reader(tail).at();
    }

    /** One entry in the tail's encoding (its seq and account are implied by where it is stored). */
    public static byte[] encode(JournalEntry entry) {
        byte[] bytes = new byte[encodedSize(entry)];
        write(bytes, 0, entry);
        return bytes;
    }

    /** Several entries, oldest first, in the tail's encoding. */
    public static byte[] encode(List<JournalEntry> entries) {
        int size = 0;
        for (JournalEntry entry : entries) {
            size += encodedSize(entry);
        }
        byte[] bytes = new byte[size];
        int position = 0;
        for (JournalEntry entry : entries) {
            position = write(bytes, position, entry);
        }
        return bytes;
    }

    private static int encodedSize(JournalEntry entry) {
        return 1 + idSize(entry.txId()) + varLongSize(entry.amount()) + varLongSize(zigzag(entry.balanceAfter()))
                + varLongSize(entry.at()) + idSize(entry.ref());
    }

    /** Writes {@code entry} into {@code bytes} at {@code position}; answers the position after it. */
    private static int write(byte[] bytes, int position, JournalEntry entry) {
        bytes[position++] = kind(entry);
        position = writeId(bytes, position, entry.txId());
        position = writeVarLong(bytes, position, entry.amount());
        position = writeVarLong(bytes, position, zigzag(entry.balanceAfter()));
        position = writeVarLong(bytes, position, entry.at());
        return writeId(bytes, position, entry.ref());
    }

    /**
     * The one-byte kind of an entry: the merged flag in the highest bit, then the type, and the status in the lowest.
     * Also the journal's {@code kind}.
     */
    public static byte kind(TxType type, TxStatus status, boolean merged) {
        return (byte) ((merged ? MERGED : 0) | type.ordinal() << 1 | status.ordinal());
    }

    static byte kind(JournalEntry entry) {
        return kind(entry.type(), entry.status(), entry.merged());
    }

    public static TxType type(byte kind) {
        return TYPES[(kind & ~MERGED & 0xFF) >> 1];
    }

    public static boolean merged(byte kind) {
        return (kind & MERGED) != 0;
    }

    public static TxStatus status(byte kind) {
        return STATUSES[kind & 1];
    }

    static byte[] bytes(String id) {
        check(id);
        return id.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Refuses an id the encoding cannot hold: one byte of length, one byte per character. */
    private static void check(String id) {
        boolean fits = id.length() <= MAX_ID_LENGTH;
        for (int i = 0; fits && i < id.length(); i++) {
            fits = id.charAt(i) <= 0xFF;
        }
        if (!fits) {
            throw new IllegalArgumentException("An id of the ledger is at most " + MAX_ID_LENGTH
                    + " Latin-1 characters: " + id);
        }
    }

    /** The bytes {@code id} takes: its length and its Latin-1 characters; refuses one the encoding cannot hold. */
    private static int idSize(String id) {
        if (id == null) {
            return 1;
        }
        if (id.isEmpty()) {
            throw new IllegalArgumentException("An id of the ledger is not empty");
        }
        check(id);
        return 1 + id.length();
    }

    /** Writes an id checked by {@link #idSize}, one byte per character. */
    private static int writeId(byte[] bytes, int position, String id) {
        if (id == null) {
            bytes[position] = 0;
            return position + 1;
        }
        bytes[position++] = (byte) id.length();
        for (int i = 0; i < id.length(); i++) {
            bytes[position++] = (byte) id.charAt(i);
        }
        return position;
    }

    private static int varLongSize(long value) {
        int size = 1;
        while ((value & ~0x7FL) != 0) {
            value >>>= 7;
            size++;
        }
        return size;
    }

    private static int writeVarLong(byte[] bytes, int position, long value) {
        while ((value & ~0x7FL) != 0) {
            bytes[position++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[position++] = (byte) value;
        return position;
    }

    private static long zigzag(long value) {
        return (value << 1) ^ (value >> 63);
    }

    private static long unzigzag(long value) {
        return (value >>> 1) ^ -(value & 1);
    }

    /** Reads a tail front to back. */
    private static final class Reader {
        private final byte[] bytes;
        private int position;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        boolean more() {
            return position < bytes.length;
        }

        /** The txId of the entry at the reader's position, without moving it. */
        String txId() {
            int length = bytes[position + 1] & 0xFF;
            return new String(bytes, position + 2, length, StandardCharsets.ISO_8859_1);
        }

        boolean txIdEquals(byte[] wanted) {
            int length = bytes[position + 1] & 0xFF;
            return length == wanted.length
                    && Arrays.equals(bytes, position + 2, position + 2 + length, wanted, 0, wanted.length);
        }

        JournalEntry next(String accountId, long seq) {
            byte kind = bytes[position++];
            String txId = readId();
            long amount = readVarLong();
            long balanceAfter = unzigzag(readVarLong());
            long at = readVarLong();
            String ref = readId();
            return new JournalEntry(accountId, txId, type(kind), amount, status(kind), balanceAfter, at, seq, ref,
                    merged(kind));
        }

        /**
         * When the entry at the reader's position was recorded, without moving it or decoding the rest: the write path
         * asks this of a tail's oldest entry on every transaction.
         */
        long at() {
            int start = position;
            position++;
            position += 1 + (bytes[position] & 0xFF);
            skipVarLong();
            skipVarLong();
            long at = readVarLong();
            position = start;
            return at;
        }

        void skip() {
            position++;
            position += 1 + (bytes[position] & 0xFF);
            skipVarLong();
            skipVarLong();
            skipVarLong();
            position += 1 + (bytes[position] & 0xFF);
        }

        private String readId() {
            int length = bytes[position++] & 0xFF;
            if (length == 0) {
                return null;
            }
            String id = new String(bytes, position, length, StandardCharsets.ISO_8859_1);
            position += length;
            return id;
        }

        private long readVarLong() {
            long value = 0;
            int shift = 0;
            while (true) {
                byte b = bytes[position++];
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
                shift += 7;
            }
        }

        private void skipVarLong() {
            while (bytes[position++] < 0) {
                // continuation bytes have the high bit set
            }
        }
    }
}
