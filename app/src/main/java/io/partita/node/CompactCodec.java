package io.partita.node;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A Compact serializer made of its type name, its class and two functions: a feature writes only how its value's
 * fields are read and written, by name. The type name is what SQL and other members know the value by, so it never
 * changes once values are stored. A sample value (any value: its fields are written, not its contents) lets a member
 * tell the cluster the schema as it starts ({@link CompactSchemas}).
 *
 * @param <T> the value
 */
public final class CompactCodec<T> implements CompactSerializer<T> {

    private final String typeName;
    private final Class<T> type;
    private final Function<CompactReader, T> read;
    private final BiConsumer<CompactWriter, T> write;
    private final T sample;

    private CompactCodec(String typeName, Class<T> type, Function<CompactReader, T> read,
                         BiConsumer<CompactWriter, T> write, T sample) {
        this.typeName = typeName;
        this.type = type;
        this.read = read;
        this.write = write;
        this.sample = sample;
    }

    public static <T> CompactCodec<T> of(String typeName, Class<T> type, Function<CompactReader, T> read,
                                         BiConsumer<CompactWriter, T> write, T sample) {
        return new CompactCodec<>(typeName, type, read, write, sample);
    }

    /** A value of the type, to write the schema from. */
    T sample() {
        return sample;
    }

    @Override
    public T read(CompactReader reader) {
        return read.apply(reader);
    }

    @Override
    public void write(CompactWriter writer, T value) {
        write.accept(writer, value);
    }

    @Override
    public String getTypeName() {
        return typeName;
    }

    @Override
    public Class<T> getCompactClass() {
        return type;
    }
}
