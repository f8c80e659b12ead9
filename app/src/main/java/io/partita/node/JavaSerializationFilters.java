package io.partita.node;

import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.SerializationConfig;

/**
 * Which classes a member accepts in Java serialization, from any peer or client. Partita's own values and tasks use
 * Compact and IdentifiedDataSerializable; Java serialization is left only for what Hazelcast itself sends that way
 * (mostly exceptions and JDK types), so anything outside Partita's, Hazelcast's and the JDK's {@code java.} packages
 * is refused before it is instantiated: a deserialization gadget sent to port 5701 never runs.
 */
public final class JavaSerializationFilters {

    /** Package prefixes whose classes a member deserializes with Java serialization. */
    static final String[] ALLOWED_PREFIXES = {"io.partita.", "com.hazelcast.", "java."};

    private JavaSerializationFilters() {
    }

    /** The filter every member runs with: the allow-list, with Hazelcast's own deny-list of gadgets kept on top. */
    public static void allowListOnly(SerializationConfig config) {
        JavaSerializationFilterConfig filter = new JavaSerializationFilterConfig().setDefaultsDisabled(false);
        filter.getWhitelist().addPrefixes(ALLOWED_PREFIXES);
        config.setJavaSerializationFilterConfig(filter);
    }

    /** Refuses every class: for proving that a value never falls back to Java serialization. */
    public static void refuseAll(SerializationConfig config) {
        JavaSerializationFilterConfig refuseAll = new JavaSerializationFilterConfig().setDefaultsDisabled(true);
        refuseAll.getWhitelist().addClasses("none.allowed");
        config.setJavaSerializationFilterConfig(refuseAll);
    }
}
