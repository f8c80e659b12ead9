package io.partita.node;

import com.hazelcast.config.CompactSerializationConfigAccessor;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the cluster the Compact schemas of Partita's values as a member starts, before it serves anything.
 *
 * <p>Why: a member that serializes a value whose schema the cluster does not know yet first replicates the schema to
 * every member and waits until all of them have acknowledged it (Hazelcast's {@code MemberSchemaService.put}), on
 * whatever thread serializes: the partition thread that sends the backup of the first account a member creates, or
 * the HTTP event loop that sends a call to another member. Each acknowledgement is an operation on the other members'
 * generic threads. While a cluster forms those are busy (a cluster-safety question holds one while it waits for
 * replica checks on partition threads), so the wait could last up to the one-minute operation timeout, holding the
 * partition thread or the event loop: a fresh five-node cluster on two cores froze that way while its first accounts
 * were opened. Done here, a member's start waits for it instead, off those threads; a member that joins later
 * receives every schema the cluster knows as it joins.
 */
final class CompactSchemas {

    private static final Logger LOG = LoggerFactory.getLogger(CompactSchemas.class);

    private CompactSchemas() {
    }

    /** Replicates the schema of every {@link CompactCodec} of {@code member}'s config, from its sample value. */
    @SuppressWarnings("rawtypes") // Hazelcast's registrations hold raw Class and CompactSerializer types
    static void replicate(HazelcastInstance member) {
        SerializationService serialization = Internals.nodeEngine(member).getSerializationService();
        CompactSerializationConfigAccessor.getRegistrations(
                member.getConfig().getSerializationConfig().getCompactSerializationConfig()).values()
                .forEach(registration -> {
                    if (registration.element3 instanceof CompactCodec<?> codec) {
                        try {
                            Members.repeatUntilDone(() -> serialization.toData(codec.sample()));
                        } catch (RuntimeException e) {
                            // The schema is replicated when a value of it is first sent, as Hazelcast does by itself.
                            LOG.warn("The Compact schema of {} was not replicated at start: {}", codec.getTypeName(),
                                    e.toString());
                        }
                    }
                });
    }
}
