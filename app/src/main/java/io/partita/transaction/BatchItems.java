package io.partita.transaction;

import io.micronaut.core.type.Argument;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Deserializer;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The body of {@code POST /transactions/batch}, read item by item: the first {@link BatchController#MAX_ITEMS} are
 * kept, any beyond are only counted (skipped token by token, never turned into objects), so a body of a hundred
 * thousand small items costs no more memory than the bytes Micronaut already bounds. A null item is kept as null and
 * answered 400 on its own, as before.
 *
 * @param items the items, at most {@link BatchController#MAX_ITEMS}
 * @param count how many items the body held
 */
@Serdeable.Deserializable(using = BatchItems.Reader.class)
record BatchItems(List<TransactionApi.BatchItem> items, int count) {

    boolean tooMany() {
        return count > items.size();
    }

    /** Reads the array with the items' own deserializer, stopping to keep items at the cap. */
    @Singleton
    static final class Reader implements Deserializer<BatchItems> {

        private static final Argument<TransactionApi.BatchItem> ITEM = Argument.of(TransactionApi.BatchItem.class);

        @Override
        public BatchItems deserialize(Decoder decoder, DecoderContext context, Argument<? super BatchItems> type)
                throws IOException {
            Deserializer<? extends TransactionApi.BatchItem> item = context.findDeserializer(ITEM)
                    .createSpecific(context, ITEM);
            List<TransactionApi.BatchItem> items = new ArrayList<>();
            int count = 0;
            Decoder array = decoder.decodeArray();
            while (array.hasNextArrayValue()) {
                count++;
                if (count > BatchController.MAX_ITEMS) {
                    array.skipValue();
                } else if (array.decodeNull()) {
                    items.add(null);
                } else {
                    items.add(item.deserialize(array, context, ITEM));
                }
            }
            array.finishStructure();
            return new BatchItems(Collections.unmodifiableList(items), count);
        }
    }
}
