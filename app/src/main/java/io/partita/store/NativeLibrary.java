package io.partita.store;

import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarEntry;

/**
 * Loads RocksDB's native library from one file per library build that every Partita process of this user on the
 * machine shares, instead of RocksDB's own way: a new temporary file at each start, removed only at a normal exit. A
 * node killed with {@code kill -9}, an OOM exit or a crash loop left 15 MB in the temporary directory each time.
 *
 * <p>The file sits in {@code <java.io.tmpdir>/partita-<uid>/rocksdbjni-<crc>-<size>/}, in a directory only this user
 * may write to (a directory under the shared temporary directory that another user made or could write to is not
 * used: a library planted there would run in the node). It is written whole under another name and renamed into
 * place, so processes that start together never load a half-written file, and one found with the wrong size is
 * written again. When any of this cannot be done (no POSIX file system, a read-only temporary directory, the library
 * not in a jar), RocksDB loads its library its own way.
 */
final class NativeLibrary {

    private static final Logger LOG = LoggerFactory.getLogger(NativeLibrary.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private NativeLibrary() {
    }

    /** Where this process loaded the library from, or null if RocksDB loaded it its own way. */
    private static volatile Path loadedFrom;

    /** Loads the library once per process (RocksDB itself remembers that it did). */
    static void load() {
        // The library's entry in RocksDB's jar, and the name RocksDB.loadLibrary(paths) looks for in each path, which
        // in this version is not the same.
        String resource = Environment.getJniLibraryFileName("rocksdb");
        String name = Environment.getJniLibraryFileName("rocksdbjni");
        try {
            Path library = sharedCopy(RocksDB.class.getClassLoader().getResource(resource), name);
            if (library != null) {
                RocksDB.loadLibrary(List.of(library.getParent().toString()));
                loadedFrom = library;
                return;
            }
        } catch (IOException | UnsupportedOperationException | SecurityException | UnsatisfiedLinkError e) {
            LOG.info("RocksDB's native library is loaded from a temporary file of its own: {}", e.toString());
        }
        RocksDB.loadLibrary();
    }

    /** The shared copy of the library at {@code url}, written if need be; null when it is not an entry of a jar. */
    private static Path sharedCopy(URL url, String name) throws IOException {
        if (url == null || !(url.openConnection() instanceof JarURLConnection jar)) {
            return null;
        }
        JarEntry entry = jar.getJarEntry();
        if (entry == null || entry.getCrc() < 0) {
            return null;
        }
        // Who this process runs as, from a file it makes (a container's user may have no name).
        Path probe = Files.createTempFile("partita-owner", ".tmp");
        UserPrincipal owner;
        Object uid;
        try {
            owner = Files.getOwner(probe);
            uid = Files.getAttribute(probe, "unix:uid");
        } finally {
            Files.delete(probe);
        }
        String build = String.format("rocksdbjni-%08x-%d", entry.getCrc(), entry.getSize());
        return extract(jar, probe.resolveSibling("partita-" + uid), owner, build, name);
    }

    /** The file this process loaded the library from, if it was the shared one. */
    static Optional<Path> loadedFrom() {
        return Optional.ofNullable(loadedFrom);
    }

    /**
     * The library's file {@code root/build/name}, written from {@code source} unless it is there whole already;
     * {@code root} is made, or must already be, a directory only {@code owner} (this process's user) may write to.
     */
    static Path extract(URLConnection source, Path root, UserPrincipal owner, String build, String name)
            throws IOException {
        ownDirectory(root, owner);
        Path directory = root.resolve(build);
        ownDirectory(directory, owner);
        Path library = directory.resolve(name);
        long size = source.getContentLengthLong();
        if (Files.isRegularFile(library) && Files.size(library) == size) {
            return library;
        }
        Path part = Files.createTempFile(directory, name, ".part");
        try {
            try (InputStream in = source.getInputStream()) {
                Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
            }
            if (Files.size(part) != size) {
                throw new IOException("the library was read short: " + Files.size(part) + " of " + size + " bytes");
            }
            Files.move(part, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(part);
        }
        return library;
    }

    private static void ownDirectory(Path directory, UserPrincipal owner) throws IOException {
        if (!Files.exists(directory)) {
            try {
                Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (FileAlreadyExistsException raced) {
                // Another process made it a moment ago; checked below like any directory found.
            }
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
        boolean othersWrite = permissions.contains(PosixFilePermission.GROUP_WRITE)
                || permissions.contains(PosixFilePermission.OTHERS_WRITE);
        if (!Files.isDirectory(directory) || Files.isSymbolicLink(directory) || !Files.getOwner(directory).equals(owner)
                || othersWrite) {
            throw new AccessDeniedException(directory.toString(), null,
                    "not a directory of this user's alone, so the library is not kept there");
        }
    }
}
