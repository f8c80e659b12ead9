package io.partita.web;

import io.micronaut.core.type.Argument;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Deserializer;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Deserializers that take a JSON value only in the shape the API gives it (app/README.md). Micronaut Serde converts
 * between scalars by default: {@code "amount":"7"}, {@code "amount":true} and {@code "amount":[7]} would all become a
 * number, and {@code "txId":123} a string; for money that is a request the client did not mean. A record component
 * marked {@link Whole}, {@link Text} or {@link Flag} refuses any other shape with a 400 that names the field. A JSON
 * null is still read as absent, so the usual {@code @NotNull} says when a field is required.
 */
public final class StrictJson {

    public static final String WHOLE = "must be a whole number, written as a JSON integer";

    private StrictJson() {
    }

    /** The field is a JSON integer: read with {@link WholeNumber}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Serdeable.Deserializable(using = WholeNumber.class)
    public @interface Whole {
    }

    /**
     * The field is an object whose own fields' errors are named from here ({@code job.amount} rather than
     * {@code amount}): read with {@link NestedObject}.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Serdeable.Deserializable(using = NestedObject.class)
    public @interface Nested {
    }

    /** The field is a JSON string: read with {@link TextValue}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Serdeable.Deserializable(using = TextValue.class)
    public @interface Text {
    }

    /** The field is a JSON boolean: read with {@link BooleanValue}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Serdeable.Deserializable(using = BooleanValue.class)
    public @interface Flag {
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
                throw Refusal.invalidField(type.getName(), "must be a JSON integer");
            }
            Number number = node.getNumberValue();
            if (number instanceof BigInteger big) {
                return new BigDecimal(big);
            }
            if (number instanceof Long || number instanceof Integer || number instanceof Short
                    || number instanceof Byte) {
                return BigDecimal.valueOf(number.longValue());
            }
            throw Refusal.invalidField(type.getName(), WHOLE);
        }
    }

    /**
     * An object read as its type normally is; a field error from inside it is named with this field's name before
     * it ({@code job.amount}), as the client wrote it. Serde reports only the innermost property, so without this the
     * client would read {@code amount} for a field of a nested object.
     */
    @Singleton
    public static final class NestedObject implements Deserializer<Object> {

        @Override
        @SuppressWarnings("unchecked")
        public Object deserialize(Decoder decoder, DecoderContext context, Argument<? super Object> type)
                throws IOException {
            // The field's type without its annotations: the ordinary deserializer, not this one again.
            Argument<Object> plain = Argument.of(type.getType());
            Deserializer<?> inner = context.findDeserializer(plain).createSpecific(context, plain);
            try {
                return inner.deserialize(decoder, context, plain);
            } catch (IOException | RuntimeException e) {
                for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                    if (cause instanceof Refusal refused) {
                        throw refused.withFieldPrefix(type.getName() + ".");
                    }
                }
                throw e;
            }
        }
    }

    /** A JSON {@code true} or {@code false}, and nothing else: {@code "true"}, {@code 1} or {@code [true]} is refused. */
    @Singleton
    public static final class BooleanValue implements Deserializer<Boolean> {

        @Override
        public Boolean deserialize(Decoder decoder, DecoderContext context, Argument<? super Boolean> type)
                throws IOException {
            JsonNode node = decoder.decodeNode();
            if (!node.isBoolean()) {
                throw Refusal.invalidField(type.getName(), "must be true or false, written as a JSON boolean");
            }
            return node.getBooleanValue();
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
                throw Refusal.invalidField(type.getName(), "must be a JSON string");
            }
            return node.getStringValue();
        }
    }
}
