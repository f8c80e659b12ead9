package io.partita;

import io.micronaut.runtime.Micronaut;
import io.partita.load.Client;
import io.partita.web.ApiUsers;
import io.partita.load.LoadTool;

import java.util.Arrays;

/** A Partita node: the HTTP API and an embedded Hazelcast member; with {@code load} first, the load tool. */
public class Application {
    public static void main(String[] args) {
        if (args.length > 0 && "load".equals(args[0])) {
            // The load tool is a client: it runs without the Micronaut context and without a Hazelcast member.
            Client.sizeCommonPool();
            System.exit(LoadTool.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        Micronaut.build(args).mainClass(Application.class).properties(ApiUsers.startupProperties(args)).start();
    }
}
