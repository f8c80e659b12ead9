package io.partita.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Files the build puts into the node's jar, read whole once: pages and documents the node serves as they are. */
final class BuiltIn {

    private BuiltIn() {
    }

    /** The bytes of the classpath resource {@code path}; {@code what} names it when it is missing. */
    static byte[] read(String path, String what) {
        try (InputStream in = BuiltIn.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(what + " " + path + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
