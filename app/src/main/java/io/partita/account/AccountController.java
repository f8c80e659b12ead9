package io.partita.account;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.Partition;
import com.hazelcast.partition.PartitionService;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.validation.Validated;
import io.partita.web.ApiException;
import io.partita.web.Ids;
import io.partita.web.InFlightLimit;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import io.partita.web.Problem;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import java.util.List;
import java.util.function.ToIntFunction;
import java.util.concurrent.CompletionStage;

/**
 * Accounts and their transactions over HTTP; every call may land on any node.
 * <b>Threads:</b> Micronaut calls it on the Netty event loops, many requests at once (the journal listing, which
 * blocks, on the HTTP blocking pool); it keeps only final references to singletons and never waits on the grid on an
 * event loop.
 */
@Controller("/accounts")
@Validated
class AccountController {

    static final String REPLAYED_HEADER = "Idempotent-Replayed";
    /** The most journal entries one {@code GET /accounts/{id}/transactions} returns. */
    static final int MAX_JOURNAL_LIMIT = 1000;

    private final AccountService accounts;
    private final InFlightLimit inFlight;
    private final PartitionService partitions;

    AccountController(AccountService accounts, InFlightLimit inFlight, HazelcastInstance hazelcast) {
        this.accounts = accounts;
        this.inFlight = inFlight;
        this.partitions = hazelcast.getPartitionService();
    }

    @Post
    CompletionStage<HttpResponse<AccountApi.AccountView>> open(@Valid @Body AccountApi.OpenAccount body) {
        long balance = body.balance() == null ? 0 : body.balance().longValueExact();
        long overdraftLimit = body.overdraftLimit() == null ? 0 : body.overdraftLimit().longValueExact();
        return accounts.open(body.id(), balance, overdraftLimit)
                .thenApply(account -> HttpResponse.created(view(body.id(), account)));
    }

    @Get("/{id}")
    CompletionStage<AccountApi.AccountView> get(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id) {
        return accounts.find(id).thenApply(account -> view(id, account.orElseThrow(() -> notFound(id))));
    }

    @Post("/{id}/transactions")
    CompletionStage<MutableHttpResponse<AccountApi.TransactionAnswer>> post(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id,
            @Valid @Body AccountApi.PostTransaction body,
            @Nullable @QueryValue String mode) {
        TxRequest request = TxRequest.of(body.txId(), TxType.valueOf(body.type()), body.amount().longValueExact(),
                System.currentTimeMillis());
        ProcessingMode processingMode = AccountService.parseMode(mode);
        return inFlight.run(1, () -> accounts.apply(id, request, processingMode))
                .thenApply(outcome -> respond(id, body.txId(), outcome, accounts::partitionOf));
    }

    @Get("/{id}/transactions")
    @ExecuteOn(TaskExecutors.BLOCKING)
    List<AccountApi.JournalView> journal(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id,
            @QueryValue(defaultValue = "50") @Min(1) int limit) {
        // A larger limit is served as the most this node returns at once rather than refused: the client asked for
        // "as many as there are", and the answer stays bounded.
        return accounts.journal(id, Math.min(limit, MAX_JOURNAL_LIMIT)).stream()
                .map(AccountApi.JournalView::of).toList();
    }

    /** The HTTP answer to an outcome: 200 applied, 422 rejected, 409 txId conflict, 404 no account. */
    static MutableHttpResponse<AccountApi.TransactionAnswer> respond(String accountId, String txId,
                                                                     TxOutcome outcome,
                                                                     ToIntFunction<String> partition) {
        Reply reply = Reply.of(accountId, txId, outcome, partition);
        if (reply.error() != null) {
            throw reply.error();
        }
        MutableHttpResponse<AccountApi.TransactionAnswer> response =
                HttpResponse.<AccountApi.TransactionAnswer>status(HttpStatus.valueOf(reply.httpStatus()))
                        .body(reply.answer())
                        .contentType(reply.httpStatus() == 200 ? MediaType.APPLICATION_JSON : Problem.MEDIA_TYPE);
        if (reply.replayed()) {
            response.header(REPLAYED_HEADER, "true");
        }
        return response;
    }

    private AccountApi.AccountView view(String id, Account account) {
        Partition partition = partitions.getPartition(id);
        Member owner = partition.getOwner();
        return new AccountApi.AccountView(id, account.balance(), account.overdraftLimit(),
                account.version(), partition.getPartitionId(),
                owner == null ? null : owner.getAddress().getHost() + ":" + owner.getAddress().getPort(),
                account.conflicts() > 0 ? account.conflicts() : null);
    }

    private static ApiException notFound(String id) {
        return Reply.notFound(id);
    }
}
