package io.partita.store;

/**
 * The record that a cluster has held data on this disk: a restart that finds it, but not a copy of every partition,
 * knows that data is missing rather than that the cluster is new.
 *
 * @param clusterName the cluster the data belongs to
 * @param since       epoch milliseconds of the first write of the marker
 */
public record DataMarker(String clusterName, long since) {
}
