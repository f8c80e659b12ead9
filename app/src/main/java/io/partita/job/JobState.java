package io.partita.job;

/** Where a job is in its life; stored by name. */
public enum JobState {
    RUNNING,
    /** Every one of the 271 partitions was processed. */
    COMPLETED,
    /** A partition kept failing with an error that retrying does not cure; {@code error} says what it was. */
    FAILED
}
