package io.partita.transfer;

/** A transfer as a client asked for it. */
record TransferRequest(String txId, String from, String to, long amount) {

    TransferKey key() {
        return new TransferKey(from, txId);
    }
}
