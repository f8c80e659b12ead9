package io.partita.node;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;

import java.io.IOException;

/**
 * An {@link Identified} whose wire form is its fields, in order: {@link #fields} names each once, and that one list
 * both writes them and reads them back, so the two directions cannot fall out of step.
 */
public interface FieldList extends Identified {

    /**
     * Passes each wire field through {@code fields} and keeps what comes back ({@code at = fields.int64(at);}):
     * writing, each call writes the field and answers it unchanged; reading, each call answers the field read.
     */
    void fields(Fields fields) throws IOException;

    @Override
    default void writeData(ObjectDataOutput out) throws IOException {
        fields(Fields.writing(out));
    }

    @Override
    default void readData(ObjectDataInput in) throws IOException {
        fields(Fields.reading(in));
    }
}
