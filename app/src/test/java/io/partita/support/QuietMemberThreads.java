package io.partita.support;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Awaitility fails an await, by default, when any thread of the JVM dies of an uncaught exception. Members that tests
 * crash now and then leave one of Hazelcast's own threads on a survivor to do so (seen: a reconnection task throwing
 * "Connecting to self!" after two of four members were terminated), which says nothing about what a test checks;
 * Partita's own threads catch and log what they throw. So every test awaits its conditions only.
 *
 * <p>Registered for every test class of this module through JUnit's extension autodetection
 * ({@code junit-platform.properties} and {@code META-INF/services}), so that no test class depends on another having
 * set it first in the same JVM.
 */
public final class QuietMemberThreads implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        Awaitility.doNotCatchUncaughtExceptionsByDefault();
    }
}
