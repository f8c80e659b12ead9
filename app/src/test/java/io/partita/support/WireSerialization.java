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

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
     * serialization (so that a service that still allows it cannot hide a fallback), when what came back is not
     * written as the same bytes again (reading and writing disagree on a field), or when any field of what came back
     * differs from the original's ({@link #assertSameFields}: a field that neither is written nor read comes back at
     * its default).
     */
    public static <T> T roundTrip(InternalSerializationService service, T value) {
        return roundTrip(service, value, Set.of());
    }

    private static <T> T roundTrip(InternalSerializationService service, T value, Set<String> notCarried) {
        Data data = service.toData(value);
        assertNotEquals(SerializationConstants.JAVA_DEFAULT_TYPE_SERIALIZABLE, data.getType(),
                value.getClass() + " fell back to Java serialization");
        T back = service.toObject(data);
        assertArrayEquals(data.toByteArray(), service.toData(back).toByteArray(),
                value.getClass() + " is written again as other bytes after a round trip");
        assertSameFields(value, back, notCarried);
        return back;
    }

    /**
     * As {@link #roundTrip(Object)}, for a {@code value} whose every field, and every field of the project's objects
     * it holds, is set to a value other than its default ({@link #assertEveryFieldSet}), so that no field's loss can
     * pass as a default that equals the original's.
     */
    public static <T> T roundTripEveryField(T value) {
        return roundTripEveryField(withoutJava(), value);
    }

    /**
     * As {@link #roundTripEveryField(Object)}, through {@code service}; {@code notCarried} names the fields (as
     * {@code Class.field}, the class's simple name) that by design no wire carries or this class never sets, which are
     * neither checked for a value nor compared.
     */
    public static <T> T roundTripEveryField(InternalSerializationService service, T value, String... notCarried) {
        Set<String> skipped = Set.of(notCarried);
        assertEveryFieldSet(value, skipped);
        return roundTrip(service, value, skipped);
    }

    /**
     * As {@link #roundTrip(Object)} for each of {@code values}, of one class none of whose values sets every field (a
     * call of one kind needs some fields, a call of another others): every field is set in at least one of them
     * ({@link #assertEveryFieldSet}), so that each field's loss shows in the value that sets it.
     */
    public static void roundTripEveryFieldAmong(List<?> values) {
        Set<String> unsetInAll = null;
        for (Object value : values) {
            List<String> unset = new ArrayList<>();
            unset(value.getClass().getSimpleName(), value, unset, Set.of(), 0);
            if (unsetInAll == null) {
                unsetInAll = new TreeSet<>(unset);
            } else {
                unsetInAll.retainAll(unset);
            }
        }
        assertTrue(unsetInAll != null && unsetInAll.isEmpty(), "set in none of the values: " + unsetInAll);
        InternalSerializationService service = withoutJava();
        values.forEach(value -> roundTrip(service, value));
    }

    /**
     * {@code back} holds what {@code original} holds, field by field: the project's own classes (records or not)
     * compared by each field they keep (not the static or transient ones, which no wire carries), lists, maps and
     * arrays element by element, every other value (strings, numbers, enums, JDK types) by {@code equals}.
     */
    public static void assertSameFields(Object original, Object back) {
        assertSameFields(original, back, Set.of());
    }

    private static void assertSameFields(Object original, Object back, Set<String> notCarried) {
        List<String> differences = new ArrayList<>();
        compare(original.getClass().getSimpleName(), original, back, differences, notCarried, 0);
        assertTrue(differences.isEmpty(), "after a round trip: " + differences);
    }

    /**
     * Every field of {@code value}, and of the project's objects it holds (directly or in lists, maps and arrays), is
     * set to other than its default: not null, not 0, not false, not an empty string, list, map or array.
     */
    public static void assertEveryFieldSet(Object value) {
        assertEveryFieldSet(value, Set.of());
    }

    private static void assertEveryFieldSet(Object value, Set<String> notCarried) {
        List<String> unset = new ArrayList<>();
        unset(value.getClass().getSimpleName(), value, unset, notCarried, 0);
        assertTrue(unset.isEmpty(), "a field at its default would not tell a lost field from a carried one: " + unset);
    }

    private static final int DEPTH = 12;

    private static boolean ours(Class<?> type) {
        return type.getName().startsWith("io.partita.") && !type.isEnum();
    }

    /**
     * The fields a wire may carry: declared on the class or its project superclasses, neither static nor transient,
     * nor named in {@code notCarried}.
     */
    private static List<Field> fields(Class<?> type, Set<String> notCarried) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && ours(c); c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && !field.isSynthetic()
                        && !notCarried.contains(c.getSimpleName() + "." + field.getName())) {
                    field.setAccessible(true);
                    fields.add(field);
                }
            }
        }
        return fields;
    }

    private static Object read(Field field, Object owner) {
        try {
            return field.get(owner);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void compare(String path, Object a, Object b, List<String> differences, Set<String> notCarried,
                                int depth) {
        if (a == b) {
            return;
        }
        if (a == null || b == null || depth > DEPTH) {
            differences.add(path + ": " + describe(a) + " became " + describe(b));
            return;
        }
        if (a instanceof List<?> listA && b instanceof List<?> listB) {
            if (listA.size() != listB.size()) {
                differences.add(path + ": " + listA.size() + " items became " + listB.size());
                return;
            }
            for (int i = 0; i < listA.size(); i++) {
                compare(path + "[" + i + "]", listA.get(i), listB.get(i), differences, notCarried, depth + 1);
            }
        } else if (a instanceof Map<?, ?> mapA && b instanceof Map<?, ?> mapB) {
            if (!mapA.keySet().equals(mapB.keySet())) {
                differences.add(path + ": keys " + mapA.keySet() + " became " + mapB.keySet());
                return;
            }
            for (Map.Entry<?, ?> entry : mapA.entrySet()) {
                compare(path + "[" + entry.getKey() + "]", entry.getValue(), mapB.get(entry.getKey()), differences,
                        notCarried, depth + 1);
            }
        } else if (a instanceof Set<?> setA && b instanceof Set<?> setB) {
            if (!setA.equals(setB)) {
                differences.add(path + ": " + setA + " became " + setB);
            }
        } else if (a.getClass().isArray() && b.getClass() == a.getClass()) {
            if (Array.getLength(a) != Array.getLength(b)) {
                differences.add(path + ": " + Array.getLength(a) + " items became " + Array.getLength(b));
                return;
            }
            for (int i = 0; i < Array.getLength(a); i++) {
                compare(path + "[" + i + "]", Array.get(a, i), Array.get(b, i), differences, notCarried, depth + 1);
            }
        } else if (a.getClass() != b.getClass()) {
            differences.add(path + ": a " + a.getClass().getName() + " became a " + b.getClass().getName());
        } else if (ours(a.getClass())) {
            for (Field field : fields(a.getClass(), notCarried)) {
                compare(path + "." + field.getName(), read(field, a), read(field, b), differences, notCarried,
                        depth + 1);
            }
        } else if (!a.equals(b)) {
            differences.add(path + ": " + describe(a) + " became " + describe(b));
        }
    }

    private static void unset(String path, Object value, List<String> unset, Set<String> notCarried, int depth) {
        if (depth > DEPTH) {
            return;
        }
        for (Field field : fields(value.getClass(), notCarried)) {
            Object held = read(field, value);
            String at = path + "." + field.getName();
            if (held == null || held.equals(0) || held.equals(0L) || held.equals(0.0) || held.equals(0.0f)
                    || held.equals((short) 0) || held.equals((byte) 0) || held.equals((char) 0) || held.equals(false)
                    || held.equals("")
                    || held instanceof Collection<?> c && c.isEmpty() || held instanceof Map<?, ?> m && m.isEmpty()
                    || held.getClass().isArray() && Array.getLength(held) == 0) {
                unset.add(at);
            } else {
                held(at, held, unset, notCarried, depth + 1);
            }
        }
    }

    /** Looks into what a field holds for the project's objects: itself, or the items of a list, map or array. */
    private static void held(String path, Object held, List<String> unset, Set<String> notCarried, int depth) {
        if (ours(held.getClass())) {
            unset(path, held, unset, notCarried, depth);
        } else if (held instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                if (item != null) {
                    held(path + "[" + i + "]", item, unset, notCarried, depth);
                }
                i++;
            }
        } else if (held instanceof Map<?, ?> map) {
            map.forEach((key, item) -> {
                if (item != null) {
                    held(path + "[" + key + "]", item, unset, notCarried, depth);
                }
            });
        } else if (held.getClass().isArray() && !held.getClass().getComponentType().isPrimitive()) {
            for (int i = 0; i < Array.getLength(held); i++) {
                if (Array.get(held, i) != null) {
                    held(path + "[" + i + "]", Array.get(held, i), unset, notCarried, depth);
                }
            }
        }
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value.getClass().isArray()) {
            List<Object> items = new ArrayList<>();
            for (int i = 0; i < Array.getLength(value); i++) {
                items.add(Array.get(value, i));
            }
            return items.toString();
        }
        return String.valueOf(value);
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
