package io.partita.bench.peers;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * Marks a trial's measured window in a flight recording, under the name and fields the {@code profile} tool reads
 * ({@code Throughput}'s phase event): {@code phase} is {@code <system>/<accounts>}, e.g. {@code partita-1/100000},
 * so that {@code profile peers.jfr --phase partita-1/100000} counts only that window's samples.
 */
@Name("io.partita.bench.Phase")
@Label("Benchmark phase")
@Category("Partita")
final class TrialEvent extends Event {

    @Label("Nodes")
    int nodes;

    @Label("Phase")
    String phase;

    @Label("Concurrency")
    int concurrency;
}
