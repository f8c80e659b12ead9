package io.partita.web;

import io.swagger.v3.oas.annotations.responses.ApiResponse;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The refusals of every route that reads a JSON body, for the OpenAPI document: 400 (malformed, or fields out of
 * bounds), 413 (past the route's body limit) and 415 (not {@code application/json}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
@ApiResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
@ApiResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
public @interface BodyRefusals {
}
