package io.partita.account;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.Partition;
import com.hazelcast.partition.PartitionService;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.validation.Validated;
import io.partita.refusal.Refusal;
import io.partita.web.ApiDocs;
import io.partita.web.BodyRefusals;
import io.partita.web.Ids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Accounts and their journals over HTTP; every call may land on any node.
 * <b>Threads:</b> Micronaut calls it on the Netty event loops, many requests at once (the journal listing, which
 * blocks, on the HTTP blocking pool); it keeps only final references to singletons and never waits on the grid on an
 * event loop.
 */
@Controller("/accounts")
@Validated
class AccountController {

    /** The most journal entries one {@code GET /accounts/{id}/transactions} returns. */
    static final int MAX_JOURNAL_LIMIT = 1000;

    private final AccountService accounts;
    private final PartitionService partitions;

    AccountController(AccountService accounts, HazelcastInstance hazelcast) {
        this.accounts = accounts;
        this.partitions = hazelcast.getPartitionService();
    }

    @Operation(operationId = "openAccount")
    @ApiResponse(responseCode = "201", description = "The account, opened")
    @BodyRefusals
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post
    CompletionStage<HttpResponse<AccountApi.AccountView>> open(@Valid @Body AccountApi.OpenAccount body) {
        long balance = body.balance() == null ? 0 : body.balance().longValueExact();
        long overdraftLimit = body.overdraftLimit() == null ? 0 : body.overdraftLimit().longValueExact();
        return accounts.open(body.id(), balance, overdraftLimit)
                .thenApply(account -> HttpResponse.created(view(body.id(), account)));
    }

    @Operation(operationId = "getAccount")
    @ApiResponse(responseCode = "200", description = "The account")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Get("/{id}")
    CompletionStage<AccountApi.AccountView> get(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id) {
        return accounts.find(id).thenApply(account -> view(id, account.orElseThrow(() -> notFound(id))));
    }

    @Operation(operationId = "listTransactions")
    @ApiResponse(responseCode = "200", description = "The account's journal, newest first, one page")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @Get("/{id}/transactions")
    @ExecuteOn(TaskExecutors.BLOCKING)
    List<AccountApi.JournalView> journal(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id,
            @QueryValue(defaultValue = "50") @Min(1) int limit,
            @QueryValue(defaultValue = "9223372036854775807") @Min(1) long before) {
        // A larger limit is served as the most this node returns at once rather than refused: the client asked for
        // "as many as there are", and the answer stays bounded. The next page is before the smallest seq of this one.
        return accounts.journal(id, before, Math.min(limit, MAX_JOURNAL_LIMIT)).stream()
                .map(AccountApi.JournalView::of).toList();
    }

    private AccountApi.AccountView view(String id, Account account) {
        Partition partition = partitions.getPartition(id);
        Member owner = partition.getOwner();
        return new AccountApi.AccountView(id, account.balance(), account.overdraftLimit(),
                account.version(), partition.getPartitionId(),
                owner == null ? null : owner.getAddress().getHost() + ":" + owner.getAddress().getPort(),
                account.conflicts() > 0 ? account.conflicts() : null);
    }

    private static Refusal notFound(String id) {
        return Refusal.notFound("Account", id);
    }
}
