package io.partita.web;

/** The shape of every id the API accepts: account ids, transaction ids, job and schedule names. */
public final class Ids {

    public static final String PATTERN = "[A-Za-z0-9._:-]{1,64}";
    public static final String MESSAGE = "must be 1 to 64 characters of A-Z a-z 0-9 . _ : -";

    private Ids() {
    }

    public static boolean valid(String id) {
        return id != null && id.matches(PATTERN);
    }
}
