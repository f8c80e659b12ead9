package io.partita.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RocksDB's native library is kept in one file per build that every node process of the user shares, instead of a new
 * temporary file per start that a killed node never removed (15 MB in /tmp at each {@code kill -9}).
 */
class NativeLibraryTest {

    @TempDir
    Path temp;

    @Test
    void shouldWriteTheLibraryOnceAndShareItAfterwards() throws IOException {
        Path source = library(100_000);
        Path root = temp.resolve("partita-me");

        Path first = extract(source, root);
        Files.setLastModifiedTime(first, FileTime.fromMillis(1_000));
        Path second = extract(source, root);

        assertEquals(first, second);
        assertArrayEquals(Files.readAllBytes(source), Files.readAllBytes(second));
        assertEquals(FileTime.fromMillis(1_000), Files.getLastModifiedTime(second), "the library was written again");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root)));
        try (Stream<Path> files = Files.list(second.getParent())) {
            assertEquals(1, files.count(), "only the library is left in its directory");
        }
    }

    @Test
    void shouldWriteAgainALibraryFoundShort() throws IOException {
        Path source = library(50_000);
        Path root = temp.resolve("partita-me");
        Path library = extract(source, root);
        Files.write(library, new byte[10]); // as a process killed while copying would leave it, were it not renamed

        extract(source, root);

        assertArrayEquals(Files.readAllBytes(source), Files.readAllBytes(library));
    }

    @Test
    void shouldNotKeepTheLibraryWhereOthersMayWrite() throws IOException {
        Path source = library(1_000);
        Path root = Files.createDirectory(temp.resolve("partita-shared"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThrows(AccessDeniedException.class, () ->
                extract(source, root));
        assertFalse(Files.exists(root.resolve("build-1")));
    }

    @Test
    void shouldOpenAStoreWithTheSharedLibrary() throws Exception {
        try (JournalStore store = JournalStore.open(StoreSettings.of(temp.resolve("store"), Durability.FLUSH))) {
            assertTrue(store.heldPartitions().isEmpty());
        }
        Path shared = Path.of(System.getProperty("java.io.tmpdir"), "partita-" + Files.getAttribute(temp, "unix:uid"));
        Path library = NativeLibrary.loadedFrom().orElseThrow(() -> new AssertionError(
                "RocksDB loaded its library its own way, from a temporary file of its own"));
        assertEquals(shared, library.getParent().getParent());
        assertTrue(Files.isRegularFile(library));
    }

    /** The library {@code source} kept under {@code root} by this test's user. */
    private Path extract(Path source, Path root) throws IOException {
        UserPrincipal me = Files.getOwner(temp);
        return NativeLibrary.extract(source.toUri().toURL().openConnection(), root, me, "build-1", "lib.so");
    }

    private Path library(int size) throws IOException {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return Files.write(temp.resolve("source-" + size), bytes);
    }
}
