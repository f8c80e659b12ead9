package io.partita.job;

import java.util.Objects;

/**
 * What a job runs: the part of a job that a client or a schedule chooses.
 *
 * @param amount          the fee in minor units, for {@link JobType#FEE}; 0 otherwise
 * @param rateBasisPoints the interest rate in hundredths of a percent, for {@link JobType#INTEREST}; 0 otherwise
 * @param concurrent      run even while another job of the same type runs (by default that is refused)
 */
public record JobSpec(JobType type, long amount, int rateBasisPoints, boolean concurrent) {

    public JobSpec {
        Objects.requireNonNull(type, "type");
    }
}
