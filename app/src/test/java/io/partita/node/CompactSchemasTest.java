package io.partita.node;

import com.hazelcast.config.CompactSerializationConfigAccessor;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.impl.compact.Schema;
import com.hazelcast.internal.serialization.impl.compact.SchemaService;
import com.hazelcast.internal.serialization.impl.compact.schema.MemberSchemaService;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every member knows the Compact schema of every value Partita stores as soon as it has started, before any value is
 * stored, and so does a member that joins later: the first write of a value never replicates a schema from a
 * partition thread or an HTTP event loop ({@link CompactSchemas}).
 */
class CompactSchemasTest {

    @Test
    void shouldKnowEverySchemaOnEveryMemberBeforeAnyValueIsStored() {
        try (TestCluster cluster = TestCluster.start(2)) {
            Set<String> types = codecTypes(cluster.member(0));
            assertTrue(types.containsAll(Set.of("partita.Account", "partita.JournalRecord", "partita.Job",
                    "partita.Schedule", "partita.Transfer", "partita.TransferKey")), "the codecs registered: " + types);
            for (HazelcastInstance member : cluster.members()) {
                assertEquals(types, schemaTypes(member), member.getName());
            }
            HazelcastInstance late = cluster.addMember();
            assertEquals(types, schemaTypes(late), "a member that joined later");
        }
    }

    @SuppressWarnings("rawtypes") // Hazelcast's registrations hold raw Class and CompactSerializer types
    private static Set<String> codecTypes(HazelcastInstance member) {
        return CompactSerializationConfigAccessor.getRegistrations(
                        member.getConfig().getSerializationConfig().getCompactSerializationConfig()).values().stream()
                .filter(registration -> registration.element3 instanceof CompactCodec<?>)
                .map(registration -> registration.element3.getTypeName()).collect(Collectors.toSet());
    }

    private static Set<String> schemaTypes(HazelcastInstance member) {
        MemberSchemaService schemas = Internals.nodeEngine(member).getService(SchemaService.SERVICE_NAME);
        return schemas.getAllSchemas().stream().map(Schema::getTypeName).collect(Collectors.toSet());
    }
}
