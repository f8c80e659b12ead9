package io.partita.client;

import java.nio.charset.StandardCharsets;

/**
 * The partition of an account, computed exactly as a Hazelcast 5 member computes it for a {@code String} key, so the
 * client can send a call to the partition's owner without asking a node.
 *
 * <p>How: a member serializes the key (a big-endian {@code int} of the UTF-8 length, then the UTF-8 bytes), hashes
 * those bytes with MurmurHash3 x86 32-bit and seed {@code 0x01000193}, and takes {@code abs(hash) mod count} (0 for
 * {@code Integer.MIN_VALUE}). If a future node hashed differently, a call would still be answered correctly (any node
 * forwards); only the saved hop would be lost. {@code PartitionRoutingIT} checks this against a real node.
 */
final class PartitionHash {

    private static final int SEED = 0x01000193;

    private PartitionHash() {
    }

    static int partitionOf(String key, int partitionCount) {
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        byte[] data = new byte[4 + utf8.length];
        int length = utf8.length;
        data[0] = (byte) (length >>> 24);
        data[1] = (byte) (length >>> 16);
        data[2] = (byte) (length >>> 8);
        data[3] = (byte) length;
        System.arraycopy(utf8, 0, data, 4, utf8.length);
        int hash = murmur3x86x32(data, SEED);
        return hash == Integer.MIN_VALUE ? 0 : Math.abs(hash) % partitionCount;
    }

    /** MurmurHash3_x86_32 over all of {@code data}, blocks read little-endian, as Hazelcast's {@code HashUtil} does. */
    @SuppressWarnings("fallthrough") // the tail's cases fall through on purpose, as in the reference implementation
    static int murmur3x86x32(byte[] data, int seed) {
        final int c1 = 0xcc9e2d51;
        final int c2 = 0x1b873593;
        int h1 = seed;
        int blocks = data.length / 4;
        for (int i = 0; i < blocks; i++) {
            int at = i * 4;
            int k1 = (data[at] & 0xff) | (data[at + 1] & 0xff) << 8 | (data[at + 2] & 0xff) << 16
                    | (data[at + 3] & 0xff) << 24;
            k1 *= c1;
            k1 = Integer.rotateLeft(k1, 15);
            k1 *= c2;
            h1 ^= k1;
            h1 = Integer.rotateLeft(h1, 13);
            h1 = h1 * 5 + 0xe6546b64;
        }
        int tail = blocks * 4;
        int k1 = 0;
        switch (data.length & 3) {
            case 3:
                k1 = (data[tail + 2] & 0xff) << 16;
                // fall through
            case 2:
                k1 |= (data[tail + 1] & 0xff) << 8;
                // fall through
            case 1:
                k1 |= data[tail] & 0xff;
                k1 *= c1;
                k1 = Integer.rotateLeft(k1, 15);
                k1 *= c2;
                h1 ^= k1;
                break;
            default:
                break;
        }
        h1 ^= data.length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        h1 ^= h1 >>> 16;
        return h1;
    }
}
