package io.partita.client;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * HTTP/1.1 to the nodes over kept-alive sockets: one pool of idle connections per node, one connection per call in
 * flight. Each request goes out in one write (request line, headers and body together) with TCP_NODELAY; nothing asks
 * for an upgrade.
 *
 * <p>Why not the JDK's {@code HttpClient}: on a 2-core machine it spent about 750 to 1,000 µs of client CPU per call
 * against a node (its selector thread and executor hand each exchange across threads, and it writes headers and body
 * as two segments), and its default version sends {@code Upgrade: h2c} on every request to a node that never
 * upgrades. This transport spends about 50 µs; the figures are in benchmarks/results/http-client-20261126.txt.
 *
 * <p>Threads: any number of callers at once. A connection belongs to one caller from {@link #exchange} until it is
 * back in its pool (a lock-free deque) or closed; a connection that saw any error is closed, never pooled.
 */
final class Http1Transport implements AutoCloseable {

    /** One answer: status, body, and the two headers the client reads. */
    record Answer(int status, String body, String retryAfter, boolean replayed) {
    }

    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final String authorization;
    private final SSLSocketFactory tls;
    private final int maxIdlePerNode;
    private final Map<String, ConcurrentLinkedDeque<Connection>> idle = new ConcurrentHashMap<>();
    private volatile boolean closed;

    Http1Transport(Duration connectTimeout, Duration readTimeout, String authorization, SSLSocketFactory tls,
                   int maxIdlePerNode) {
        this.connectTimeout = connectTimeout;
        this.readTimeout = readTimeout;
        this.authorization = authorization;
        this.tls = tls;
        this.maxIdlePerNode = maxIdlePerNode;
    }

    /**
     * Sends one request to {@code node} and reads its answer. A pooled connection the node had closed meanwhile (it
     * fails before a byte of the answer arrives) is dropped and the request sent once more on a new connection; any
     * other failure is the caller's to retry.
     *
     * @param body JSON, or null for a request without a body
     * @throws NotSent    the request was not sent (no connection, the client closed, the node's certificate
     *                    refused): nothing can have changed
     * @throws IOException a connection error or no answer within the read timeout: the outcome is unknown
     */
    Answer exchange(URI node, String method, String pathAndQuery, String body) throws IOException {
        return exchange(node, method, pathAndQuery, body, readTimeout.toMillis());
    }

    /** As above, waiting at most {@code timeoutMillis} (at least 1) for the answer instead of the read timeout. */
    Answer exchange(URI node, String method, String pathAndQuery, String body, long timeoutMillis)
            throws IOException {
        if (closed) {
            throw new Closed();
        }
        int timeout = (int) Math.max(1, Math.min(timeoutMillis, readTimeout.toMillis()));
        byte[] request = request(node, method, pathAndQuery, body);
        ConcurrentLinkedDeque<Connection> pool = idle.computeIfAbsent(key(node), k -> new ConcurrentLinkedDeque<>());
        Connection pooled = pool.pollFirst();
        if (pooled != null) {
            try {
                return exchange(pooled, pool, request, timeout);
            } catch (StaleConnection e) {
                // The node closed it while idle: nothing of the request was read. Once more, on a new one.
            }
        }
        try {
            return exchange(open(node), pool, request, timeout);
        } catch (StaleConnection e) {
            throw new EOFException("connection closed by " + node + " before it answered");
        }
    }

    private Answer exchange(Connection connection, ConcurrentLinkedDeque<Connection> pool, byte[] request,
                            int timeoutMillis) throws IOException {
        boolean keep = false;
        try {
            connection.socket.setSoTimeout(timeoutMillis);
            connection.out.write(request);
            connection.out.flush();
            Answer answer = connection.read();
            keep = connection.reusable && !closed;
            return answer;
        } finally {
            if (keep && pool.size() < maxIdlePerNode) {
                pool.offerFirst(connection);
            } else {
                connection.close();
            }
        }
    }

    /**
     * A new connection to {@code node}, its TLS handshake done: nothing of a request has been sent on it, so each
     * failure here is a {@link NotSent}.
     */
    private Connection open(URI node) throws IOException {
        boolean secure = "https".equalsIgnoreCase(node.getScheme());
        int port = node.getPort() > 0 ? node.getPort() : secure ? 443 : 80;
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(new InetSocketAddress(node.getHost(), port), (int) connectTimeout.toMillis());
            if (secure) {
                SSLSocket tlsSocket = (SSLSocket) tls.createSocket(socket, node.getHost(), port, true);
                // Check that the certificate names this host, as a browser does; an SSLSocket alone does not.
                SSLParameters parameters = tlsSocket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                tlsSocket.setSSLParameters(parameters);
                socket = tlsSocket;
                tlsSocket.setSoTimeout((int) connectTimeout.toMillis());
                tlsSocket.startHandshake();
            }
            return new Connection(socket);
        } catch (SSLHandshakeException e) {
            socket.close();
            throw refusedCertificate(e) ? new Untrusted(node, e) : new NotSent(node, e);
        } catch (IOException e) {
            socket.close();
            throw new NotSent(node, e);
        } catch (RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Whether a handshake failed on the node's certificate (not trusted, or not naming the host). */
    private static boolean refusedCertificate(SSLHandshakeException e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof CertificateException) {
                return true;
            }
        }
        return false;
    }

    private byte[] request(URI node, String method, String pathAndQuery, String body) {
        byte[] content = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(256).append(method).append(' ').append(pathAndQuery)
                .append(" HTTP/1.1\r\nHost: ").append(node.getHost());
        if (node.getPort() > 0) {
            head.append(':').append(node.getPort());
        }
        head.append("\r\nAccept: application/json\r\n");
        if (authorization != null) {
            head.append("Authorization: ").append(authorization).append("\r\n");
        }
        if (content != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(content.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        if (content == null) {
            return headBytes;
        }
        byte[] all = new byte[headBytes.length + content.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(content, 0, all, headBytes.length, content.length);
        return all;
    }

    private static String key(URI node) {
        return node.getScheme() + "://" + node.getHost() + ":" + node.getPort();
    }

    @Override
    public void close() {
        closed = true;
        idle.values().forEach(pool -> {
            for (Connection connection; (connection = pool.pollFirst()) != null; ) {
                connection.close();
            }
        });
    }

    /**
     * The request was not sent: no connection to the node (refused, timed out, a handshake cut short), so nothing can
     * have changed; sending it again, there or elsewhere, may succeed.
     */
    static class NotSent extends IOException {
        NotSent(URI node, IOException cause) {
            super("not sent to " + node + ": " + cause, cause);
        }

        NotSent(String message) {
            super(message);
        }
    }

    /** Not sent, and sending again cannot help: the client is closed. */
    static final class Closed extends NotSent {
        Closed() {
            super("client closed");
        }
    }

    /** Not sent, and sending again cannot help: the client's TLS check refused the node's certificate. */
    static final class Untrusted extends NotSent {
        Untrusted(URI node, SSLHandshakeException cause) {
            super(node, cause);
        }
    }

    /** A pooled connection that ended before the first byte of its answer: the node closed it while it was idle. */
    private static final class StaleConnection extends IOException {
        StaleConnection() {
            super("stale connection");
        }
    }

    /** One socket and its buffered input; used by one caller at a time. */
    private static final class Connection {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private boolean reusable;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 8192);
            this.out = socket.getOutputStream();
        }

        Answer read() throws IOException {
            int first = in.read();
            if (first < 0) {
                throw new StaleConnection();
            }
            String statusLine = (char) first + line();
            int space = statusLine.indexOf(' ');
            if (!statusLine.startsWith("HTTP/1.") || space < 0 || statusLine.length() < space + 4) {
                throw new IOException("not an HTTP/1.1 answer: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(space + 1, space + 4));
            long length = -1;
            boolean chunked = false;
            boolean close = statusLine.startsWith("HTTP/1.0");
            String retryAfter = null;
            boolean replayed = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = header.substring(0, colon).trim();
                String value = header.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                    chunked = value.toLowerCase().contains("chunked");
                } else if (name.equalsIgnoreCase("Connection")) {
                    close = value.equalsIgnoreCase("close");
                } else if (name.equalsIgnoreCase("Retry-After")) {
                    retryAfter = value;
                } else if (name.equalsIgnoreCase("Idempotent-Replayed")) {
                    replayed = value.equalsIgnoreCase("true");
                }
            }
            byte[] body;
            if (status == 204 || status == 304 || status / 100 == 1) {
                body = new byte[0];
            } else if (chunked) {
                body = chunks();
            } else if (length >= 0) {
                body = in.readNBytes((int) length);
                if (body.length < length) {
                    throw new EOFException("answer cut short");
                }
            } else {
                body = in.readAllBytes();
                close = true;
            }
            reusable = !close;
            return new Answer(status, new String(body, StandardCharsets.UTF_8), retryAfter, replayed);
        }

        private byte[] chunks() throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (true) {
                String size = line();
                int semicolon = size.indexOf(';');
                int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                if (n == 0) {
                    while (!line().isEmpty()) {
                        // trailers: none the client needs
                    }
                    return body.toByteArray();
                }
                byte[] chunk = in.readNBytes(n);
                if (chunk.length < n) {
                    throw new EOFException("chunk cut short");
                }
                body.write(chunk);
                line();
            }
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder(64);
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new EOFException("answer cut short");
                }
                if (c == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                line.append((char) c);
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // Closing: nothing left to do with it.
            }
        }
    }
}
