package io.partita.node;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an IdentifiedDataSerializable writes a list or a map: its size as an int, then each item (each key, then its
 * value) in order. Read back into a mutable {@link ArrayList} or insertion-ordered {@link LinkedHashMap}.
 */
public final class Wire {

    /** Writes one item. */
    @FunctionalInterface
    public interface Writer<T> {
        void write(ObjectDataOutput out, T item) throws IOException;
    }

    /** Reads one item. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(ObjectDataInput in) throws IOException;
    }

    private Wire() {
    }

    public static <T> void writeList(ObjectDataOutput out, List<T> items, Writer<? super T> item) throws IOException {
        out.writeInt(items.size());
        for (T each : items) {
            item.write(out, each);
        }
    }

    public static <T> List<T> readList(ObjectDataInput in, Reader<? extends T> item) throws IOException {
        int size = in.readInt();
        List<T> items = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            items.add(item.read(in));
        }
        return items;
    }

    public static <K, V> void writeMap(ObjectDataOutput out, Map<K, V> map, Writer<? super K> key,
                                       Writer<? super V> value) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<K, V> entry : map.entrySet()) {
            key.write(out, entry.getKey());
            value.write(out, entry.getValue());
        }
    }

    public static <K, V> Map<K, V> readMap(ObjectDataInput in, Reader<? extends K> key, Reader<? extends V> value)
            throws IOException {
        int size = in.readInt();
        Map<K, V> map = new LinkedHashMap<>(size * 2);
        for (int i = 0; i < size; i++) {
            K read = key.read(in);
            map.put(read, value.read(in));
        }
        return map;
    }
}
