package io.partita.client;

/**
 * An account as a node shows it.
 *
 * @param partition the partition (0 to 270) that holds it
 * @param owner     the member address that owns that partition, as the node saw it
 * @param mergeConflicts how many split-brain merges left the account below its overdraft limit (both sides of the
 *                  split debited it); 0 when none did
 */
public record Account(String id, long balance, long overdraftLimit, long version, int partition, String owner,
                      long mergeConflicts) {
}
