package io.partita.node;

/**
 * The two paths a transaction can take (app/DESIGN.md, "Processing paths"): {@code PARTITIONED}, an entry processor at
 * the partition owner with no lock, or {@code LOCKED}, a FencedLock per account around the same work. A node's default
 * is {@code partita.processing.mode}; a request may name one with {@code ?mode=}.
 */
public enum ProcessingMode { PARTITIONED, LOCKED }
