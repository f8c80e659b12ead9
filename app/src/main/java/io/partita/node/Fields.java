package io.partita.node;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * One direction of a {@link FieldList}'s wire form. Writing, each method writes its argument and answers it; reading,
 * each ignores its argument and answers what it read. Either way {@code field = fields.kind(field)} leaves the field
 * as it travels. Lists and maps travel as {@link Wire} writes them.
 */
public abstract class Fields {

    private Fields() {
    }

    static Fields writing(ObjectDataOutput out) {
        return new Writing(out);
    }

    static Fields reading(ObjectDataInput in) {
        return new Reading(in);
    }

    public abstract int int32(int value) throws IOException;

    public abstract long int64(long value) throws IOException;

    public abstract double float64(double value) throws IOException;

    public abstract String string(String value) throws IOException;

    public abstract int[] int32s(int[] values) throws IOException;

    public abstract long[] int64s(long[] values) throws IOException;

    /** Any value the serialization config knows (Compact values, Identified classes), or null. */
    public abstract <T> T object(T value) throws IOException;

    /** A constant of {@code values} (its enum's values, in order) as its ordinal in one byte. */
    public abstract <E extends Enum<E>> E ordinal(E value, E[] values) throws IOException;

    /** A value in a form of its own. */
    public abstract <T> T value(T value, Wire.Writer<? super T> writer, Wire.Reader<? extends T> reader)
            throws IOException;

    public abstract <T> List<T> list(List<T> items, Wire.Writer<? super T> writer, Wire.Reader<? extends T> reader)
            throws IOException;

    public abstract <K, V> Map<K, V> map(Map<K, V> map, Wire.Writer<? super K> keyWriter,
                                         Wire.Writer<? super V> valueWriter, Wire.Reader<? extends K> keyReader,
                                         Wire.Reader<? extends V> valueReader) throws IOException;

    private static final class Writing extends Fields {

        private final ObjectDataOutput out;

        Writing(ObjectDataOutput out) {
            this.out = out;
        }

        @Override
        public int int32(int value) throws IOException {
            out.writeInt(value);
            return value;
        }

        @Override
        public long int64(long value) throws IOException {
            out.writeLong(value);
            return value;
        }

        @Override
        public double float64(double value) throws IOException {
            out.writeDouble(value);
            return value;
        }

        @Override
        public String string(String value) throws IOException {
            out.writeString(value);
            return value;
        }

        @Override
        public int[] int32s(int[] values) throws IOException {
            out.writeIntArray(values);
            return values;
        }

        @Override
        public long[] int64s(long[] values) throws IOException {
            out.writeLongArray(values);
            return values;
        }

        @Override
        public <T> T object(T value) throws IOException {
            out.writeObject(value);
            return value;
        }

        @Override
        public <E extends Enum<E>> E ordinal(E value, E[] values) throws IOException {
            out.writeByte(value.ordinal());
            return value;
        }

        @Override
        public <T> T value(T value, Wire.Writer<? super T> writer, Wire.Reader<? extends T> reader)
                throws IOException {
            writer.write(out, value);
            return value;
        }

        @Override
        public <T> List<T> list(List<T> items, Wire.Writer<? super T> writer, Wire.Reader<? extends T> reader)
                throws IOException {
            Wire.writeList(out, items, writer);
            return items;
        }

        @Override
        public <K, V> Map<K, V> map(Map<K, V> map, Wire.Writer<? super K> keyWriter,
                                    Wire.Writer<? super V> valueWriter, Wire.Reader<? extends K> keyReader,
                                    Wire.Reader<? extends V> valueReader) throws IOException {
            Wire.writeMap(out, map, keyWriter, valueWriter);
            return map;
        }
    }

    private static final class Reading extends Fields {

        private final ObjectDataInput in;

        Reading(ObjectDataInput in) {
            this.in = in;
        }

        @Override
        public int int32(int ignored) throws IOException {
            return in.readInt();
        }

        @Override
        public long int64(long ignored) throws IOException {
            return in.readLong();
        }

        @Override
        public double float64(double ignored) throws IOException {
            return in.readDouble();
        }

        @Override
        public String string(String ignored) throws IOException {
            return in.readString();
        }

        @Override
        public int[] int32s(int[] ignored) throws IOException {
            return in.readIntArray();
        }

        @Override
        public long[] int64s(long[] ignored) throws IOException {
            return in.readLongArray();
        }

        @Override
        public <T> T object(T ignored) throws IOException {
            return in.readObject();
        }

        @Override
        public <E extends Enum<E>> E ordinal(E ignored, E[] values) throws IOException {
            return values[in.readByte()];
        }

        @Override
        public <T> T value(T ignored, Wire.Writer<? super T> writer, Wire.Reader<? extends T> reader)
                throws IOException {
            return reader.read(in);
        }

        @Override
        public <T> List<T> list(List<T> ignored, Wire.Writer<? super T> writer, Wire.Reader<? extends T> reader)
                throws IOException {
            return Wire.readList(in, reader);
        }

        @Override
        public <K, V> Map<K, V> map(Map<K, V> ignored, Wire.Writer<? super K> keyWriter,
                                    Wire.Writer<? super V> valueWriter, Wire.Reader<? extends K> keyReader,
                                    Wire.Reader<? extends V> valueReader) throws IOException {
            return Wire.readMap(in, keyReader, valueReader);
        }
    }
}
