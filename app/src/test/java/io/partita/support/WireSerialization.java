package io.partita.support;

import com.hazelcast.config.Config;
import com.hazelcast.config.SerializationConfig;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.internal.serialization.impl.compact.Schema;
import com.hazelcast.internal.serialization.impl.compact.SchemaService;
import io.partita.node.HazelcastConfigs;
import io.partita.node.JavaSerializationFilters;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The node's own serialization config (the registry's factory and Compact serializers), without a member, and with
 * Java serialization refused outright: a class that would fall back to it fails to come back.
 */
public final class WireSerialization {

    private WireSerialization() {
    }

    public static InternalSerializationService withoutJava() {
        return service(nodeConfigWithoutJava(), new InMemorySchemas());
    }

    /** {@code value} after a trip over the wire with the node's config and Java serialization refused. */
    public static <T> T roundTrip(T value) {
        return roundTrip(withoutJava(), value);
    }

    /**
     * {@code value} after a trip through {@code service}, failing the test when it was written with Java
     * serialization (so that a service that still allows it cannot hide a fallback), or when what came back is not
     * written as the same bytes again (reading and writing disagree on a field).
     */
    public static <T> T roundTrip(InternalSerializationService service, T value) {
        Data data = service.toData(value);
        assertNotEquals(SerializationConstants.JAVA_DEFAULT_TYPE_SERIALIZABLE, data.getType(),
                value.getClass() + " fell back to Java serialization");
        T back = service.toObject(data);
        assertArrayEquals(data.toByteArray(), service.toData(back).toByteArray(),
                value.getClass() + " is written again as other bytes after a round trip");
        return back;
    }

    /** The bytes {@code value} takes on the wire (its serialized form, with Hazelcast's 8-byte header). */
    public static int size(Object value) {
        return withoutJava().toData(value).totalSize();
    }

    /** The node's serialization config with Java serialization refused. */
    public static SerializationConfig nodeConfigWithoutJava() {
        Config config = HazelcastConfigs.memberConfig(
                TestProperties.tcp("serialization", 5701, List.of(), 0), "http://127.0.0.1:0", AllFeatures.LIST);
        JavaSerializationFilters.refuseAll(config.getSerializationConfig());
        return config.getSerializationConfig();
    }

    /** A serialization service for {@code config}; services given one {@code schemas} read each other's Compact. */
    public static InternalSerializationService service(SerializationConfig config, SchemaService schemas) {
        return new DefaultSerializationServiceBuilder().setConfig(config).setSchemaService(schemas).build();
    }

    /** What the cluster's schema service does for Compact, kept in memory: the schemas written so far. */
    public static final class InMemorySchemas implements SchemaService {
        private final Map<Long, Schema> schemas = new ConcurrentHashMap<>();

        @Override
        public Schema get(long schemaId) {
            return schemas.get(schemaId);
        }

        @Override
        public void put(Schema schema) {
            schemas.put(schema.getSchemaId(), schema);
        }

        @Override
        public void putLocal(Schema schema) {
            put(schema);
        }
    }
}
