package io.partita.bench.peers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The peers' ledgers in the jar: the files of {@code benchmarks/peers/} that {@code peers.sh} loads. */
final class Resources {

    private Resources() {
    }

    static String peerFile(String name) {
        try (InputStream in = Resources.class.getResourceAsStream("/peers/" + name)) {
            if (in == null) {
                throw new IllegalStateException("peers/" + name + " is not in the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
