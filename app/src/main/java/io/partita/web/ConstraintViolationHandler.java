package io.partita.web;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.validation.exceptions.ConstraintExceptionHandler;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;

import java.util.Comparator;
import java.util.List;

/**
 * A failed constraint becomes a 400 that names each field at fault as the client wrote it: {@code amount} for a body
 * field, {@code id} for a path variable, {@code [3].amount} for an item of a batch.
 */
@Produces(Problem.MEDIA_TYPE)
@Singleton
@Replaces(ConstraintExceptionHandler.class)
public class ConstraintViolationHandler
        implements ExceptionHandler<ConstraintViolationException, HttpResponse<Problem>> {

    @Override
    @SuppressWarnings("rawtypes") // ExceptionHandler declares a raw HttpRequest; HttpRequest<?> would not override it
    public HttpResponse<Problem> handle(HttpRequest request, ConstraintViolationException exception) {
        List<Refusal.FieldError> errors = exception.getConstraintViolations().stream()
                .map(violation -> new Refusal.FieldError(field(violation), violation.getMessage()))
                .sorted(Comparator.comparing(Refusal.FieldError::field))
                .toList();
        return Refusals.render(Refusal.invalidFields(errors));
    }

    public static String field(ConstraintViolation<?> violation) {
        StringBuilder field = new StringBuilder();
        String parameter = null;
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == ElementKind.METHOD || node.getKind() == ElementKind.CONSTRUCTOR) {
                continue;
            }
            if (node.getKind() == ElementKind.PARAMETER) {
                parameter = node.getName();
                continue;
            }
            if (node.getIndex() != null) {
                field.append('[').append(node.getIndex()).append(']');
            }
            if (node.getName() != null && !node.getName().isEmpty() && !node.getName().startsWith("<")) {
                if (!field.isEmpty()) {
                    field.append('.');
                }
                field.append(node.getName());
            }
        }
        return field.isEmpty() && parameter != null ? parameter : field.toString();
    }
}
