package io.partita.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process that is killed (SIGKILL, no close, no shutdown hook) while it writes in FLUSH mode loses nothing it had
 * acknowledged: the store opened again in the same directory holds every entry whose future had completed.
 */
class StoreCrashTest {

    private static final int ACKNOWLEDGED_BEFORE_THE_KILL = 200;

    @TempDir
    Path dir;

    @Test
    void shouldKeepEveryAcknowledgedEntryWhenTheProcessIsKilledWhileWriting() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Writer.class.getName(), dir.toString())
                .redirectErrorStream(true).start();
        List<Long> acknowledged = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith("ACK ")) {
                    acknowledged.add(Long.parseLong(line.substring(4)));
                    if (acknowledged.size() == ACKNOWLEDGED_BEFORE_THE_KILL) {
                        // SIGKILL; the acknowledgements still in the pipe are lost to the check, not to the store.
                        child.destroyForcibly();
                        break;
                    }
                }
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(ACKNOWLEDGED_BEFORE_THE_KILL, acknowledged.size(), "the writer stopped early");

        try (JournalStore store = JournalStore.open(StoreSettings.of(dir, Durability.FLUSH))) {
            for (long batch : acknowledged) {
                for (StoredEntry entry : Writer.batch(batch)) {
                    assertEquals(entry, store.find(Writer.PARTITION, entry.accountId(), entry.txId(), Long.MAX_VALUE).orElse(null));
                }
            }
        }
    }

    /** The child process: writes batches of 64 entries for ever, printing each batch once it is acknowledged. */
    public static final class Writer {

        static final int PARTITION = 17;

        public static void main(String[] args) {
            JournalStore store = JournalStore.open(StoreSettings.of(Path.of(args[0]), Durability.FLUSH));
            for (long batch = 0; ; batch++) {
                long acknowledged = batch;
                store.append(PARTITION, batch(batch)).thenRun(() -> System.out.println("ACK " + acknowledged));
                if (batch % 8 == 7) {
                    store.append(PARTITION, List.of()).join();
                }
            }
        }

        static List<StoredEntry> batch(long batch) {
            List<StoredEntry> entries = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                entries.add(Entries.entry("a-" + i, batch, batch * 64 + i));
            }
            return entries;
        }
    }
}
