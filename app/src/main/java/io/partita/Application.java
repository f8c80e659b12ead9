package io.partita;

import io.micronaut.runtime.Micronaut;
import io.partita.load.LoadTool;
import io.partita.web.ApiUsers;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;

import java.util.Arrays;

/** A Partita node: the HTTP API and an embedded Hazelcast member; with {@code load} first, the load tool. */
@OpenAPIDefinition(info = @Info(title = "Partita", version = "1", description = "A partitioned ledger: accounts, "
        + "debits and credits with exactly-once transaction ids, transfers, batches, jobs and schedules, worker "
        + "leases, read-only SQL and views of the cluster. Errors are application/problem+json."))
public class Application {
    public static void main(String[] args) {
        if (args.length > 0 && "load".equals(args[0])) {
            // The load tool is a client: it runs without the Micronaut context and without a Hazelcast member.
            System.exit(LoadTool.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        Micronaut.build(args).mainClass(Application.class).properties(ApiUsers.startupProperties(args)).start();
    }
}
