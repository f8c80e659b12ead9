package io.partita;

import io.micronaut.runtime.Micronaut;
import io.partita.cluster.CommonPool;

/** A Partita node: the HTTP API and an embedded Hazelcast member. */
public class Application {
    public static void main(String[] args) {
        CommonPool.configure();
        Micronaut.run(Application.class, args);
    }
}
