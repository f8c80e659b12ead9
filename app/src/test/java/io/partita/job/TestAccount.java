package io.partita.job;

import io.partita.account.Account;

/** An account a test opens: its id (the map's key) and opening figures. */
public record TestAccount(String id, long balance, long overdraftLimit) {

    Account account() {
        return Account.open(balance, overdraftLimit);
    }
}
