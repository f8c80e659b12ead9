package io.partita.client;

/**
 * Whether a fencing token is still the one of its shard: {@code current} false means another worker holds the shard
 * now (its token is {@code currentToken}, or null when no one does), so work under the old token must stop.
 */
public record FenceCheck(int shard, long token, boolean current, Long currentToken) {
}
