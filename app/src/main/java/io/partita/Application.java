package io.partita;

import io.micronaut.runtime.Micronaut;
import io.partita.load.LoadTool;

import java.util.Arrays;

public class Application {
    public static void main(String[] args) {
        if (args.length > 0 && "load".equals(args[0])) {
            // The load tool is a client: it runs without the Micronaut context and without a Hazelcast member.
            System.exit(LoadTool.run(Arrays.copyOfRange(args, 1, args.length), System.out));
        }
        Micronaut.run(Application.class, args);
    }
}
