package io.partita.transfer;

import io.micronaut.context.ApplicationContext;
import io.partita.node.ProcessingMode;

/**
 * The benchmarks' way into one node's transfer service, exactly as {@code POST /transfers} calls it. It lives in the
 * benchmark jar but in the app's package, as Caffeine's benchmarks sit in the cache's package: the service and its
 * request are package-private, and widening them for a benchmark would put them in the app's public surface.
 *
 * <p>What runs where: {@link #transfer} runs the whole transfer on the calling thread and blocks, as the controller
 * does on the node's blocking executor; in locked mode it holds both accounts' FencedLocks for its duration.
 */
public final class TransferDriver {

    /** A transfer's answer; {@code replayed} when the transfer had been recorded before this call. */
    public record Answer(Transfer transfer, boolean replayed) {
    }

    private final TransferService service;

    public TransferDriver(ApplicationContext node) {
        this.service = node.getBean(TransferService.class);
    }

    /**
     * @throws io.partita.refusal.Refusal as the service throws it: a transient one is worth a retry with the same id
     */
    public Answer transfer(String txId, String from, String to, long amount, ProcessingMode mode) {
        TransferService.Result result = service.transfer(new TransferRequest(txId, from, to, amount), mode);
        return new Answer(result.transfer(), result.replayed());
    }
}
