package org.example.foreign;

import java.io.Serializable;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Serializable class from outside Partita's, Hazelcast's and the JDK's packages, standing for a gadget an attacker
 * would send to the member port; it counts the times a member ran it, or read it back from the wire.
 */
public final class ForeignTask implements Callable<String>, Serializable {

    public static final AtomicInteger RUNS = new AtomicInteger();
    public static final AtomicInteger READS = new AtomicInteger();

    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        READS.incrementAndGet();
    }

    @Override
    public String call() {
        RUNS.incrementAndGet();
        return "ran";
    }
}
