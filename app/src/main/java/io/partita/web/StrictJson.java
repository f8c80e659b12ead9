package io.partita.web;

import io.micronaut.core.type.Argument;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Deserializer;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Deserializers that take a JSON value only in the shape API.md gives it. Micronaut Serde converts between scalars
 * by default: {@code "amount":"7"}, {@code "amount":true} and {@code "amount":[7]} would all become a number, and
 * {@code "txId":123} a string; for money that is a request the client did not mean. A record component marked
 * {@link Whole} or {@link Text} refuses any other shape with a 400 that names the field. A JSON null is still read as
 * absent, so the usual {@code @NotNull} says when a field is required.
 */
public final class StrictJson {

    public static final String WHOLE = "must be a whole number of minor units";

    private StrictJson() {
    }

    /** The field is a JSON integer: read with {@link WholeNumber}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Serdeable.Deserializable(using = WholeNumber.class)
    public @interface Whole {
    }

    /** The field is a JSON string: read with {@link TextValue}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Serdeable.Deserializable(using = TextValue.class)
    public @interface Text {
    }

    /**
     * A JSON integer, and nothing else: a fraction or an exponent ({@code 1.5}, {@code 7.0}, {@code 1e3}) is refused
     * as not whole, a string, boolean, array or object as the wrong type. The range is for validation to check.
     */
    @Singleton
    public static final class WholeNumber implements Deserializer<BigDecimal> {

        @Override
        public BigDecimal deserialize(Decoder decoder, DecoderContext context, Argument<? super BigDecimal> type)
                throws IOException {
            JsonNode node = decoder.decodeNode();
            if (!node.isNumber()) {
                throw ApiException.invalidField(type.getName(), "must be a JSON integer");
            }
            Number number = node.getNumberValue();
            if (number instanceof BigInteger big) {
                return new BigDecimal(big);
            }
            if (number instanceof Long || number instanceof Integer || number instanceof Short
                    || number instanceof Byte) {
                return BigDecimal.valueOf(number.longValue());
            }
            throw ApiException.invalidField(type.getName(), WHOLE);
        }
    }

    /** A JSON string, and nothing else: a number or boolean is not turned into its text. */
    @Singleton
    public static final class TextValue implements Deserializer<String> {

        @Override
        public String deserialize(Decoder decoder, DecoderContext context, Argument<? super String> type)
                throws IOException {
            JsonNode node = decoder.decodeNode();
            if (!node.isString()) {
                throw ApiException.invalidField(type.getName(), "must be a JSON string");
            }
            return node.getStringValue();
        }
    }
}
