package io.partita.web;

/** The shape of every id the API accepts: account ids, transaction ids, job and schedule names. */
public final class Ids {

    public static final int MAX_LENGTH = 64;
    public static final String PATTERN = "[A-Za-z0-9._:-]{1," + MAX_LENGTH + "}";
    public static final String MESSAGE = "must be 1 to 64 characters of A-Z a-z 0-9 . _ : -";

    private Ids() {
    }

    /** Whether {@code id} matches {@link #PATTERN}; a loop over its characters, as cheap as the check can be. */
    public static boolean valid(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == ':' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
