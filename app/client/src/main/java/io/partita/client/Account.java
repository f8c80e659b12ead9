package io.partita.client;

/**
 * An account as a node shows it.
 *
 * @param partition the partition (0 to 270) that holds it
 * @param owner     the member address that owns that partition, as the node saw it
 */
public record Account(String id, long balance, long overdraftLimit, long version, int partition, String owner) {
}
