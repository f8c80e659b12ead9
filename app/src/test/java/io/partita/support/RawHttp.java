package io.partita.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one connection per request, so that a test can send what no HTTP client library
 * would: a request line of any length, any header, a chunked body of any size, bytes that are not UTF-8. It reads
 * the answer as the server wrote it (status, headers, body by Content-Length, chunks, or until the connection
 * closes).
 */
public final class RawHttp {

    private final String host;
    private final int port;
    private final int timeoutMillis;

    public RawHttp(URL base) {
        this(base, 30_000);
    }

    /** {@code timeoutMillis}: how long a read waits for the server before it fails. */
    public RawHttp(URL base, int timeoutMillis) {
        this.host = base.getHost();
        this.port = base.getPort();
        this.timeoutMillis = timeoutMillis;
    }

    /** The answer: {@code status} 0 when the server closed the connection without one. */
    public record Answer(int status, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public String toString() {
            return status + " " + headers.get("content-type") + " " + body;
        }
    }

    /** Sends a request with a Content-Length body (or none when {@code body} is null). */
    public Answer send(String method, String target, Map<String, String> headers, byte[] body) {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        writeHead(request, method, target, headers);
        if (body != null && !hasHeader(headers, "content-length")) {
            request.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            request.writeBytes(body);
        }
        return exchange(request.toByteArray());
    }

    /** Sends {@code body} chunked, in chunks of {@code chunkSize} bytes, with no Content-Length. */
    public Answer sendChunked(String method, String target, Map<String, String> headers, byte[] body, int chunkSize) {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        writeHead(request, method, target, headers);
        request.writeBytes("Transfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        for (int at = 0; at < body.length; at += chunkSize) {
            int length = Math.min(chunkSize, body.length - at);
            request.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            request.write(body, at, length);
            request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        request.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return exchange(request.toByteArray());
    }

    private static void writeHead(ByteArrayOutputStream out, String method, String target,
                                  Map<String, String> headers) {
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: localhost\r\nConnection: close\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static boolean hasHeader(Map<String, String> headers, String name) {
        return headers.keySet().stream().anyMatch(h -> h.equalsIgnoreCase(name));
    }

    /** Sends {@code request} as it is (request line, headers, body) and reads the answer. */
    public Answer exchange(byte[] request) {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (SocketException closed) {
                // The server may answer and close before it has read the whole body (a 413): read what it sent.
            }
            return read(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Answer read(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null || statusLine.isEmpty()) {
            return new Answer(0, Map.of(), "");
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        if (status == 100) {
            line(in);
            return read(in);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    header.substring(colon + 1).trim());
        }
        byte[] body;
        if (headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream chunks = new ByteArrayOutputStream();
            for (int size = Integer.parseInt(line(in).trim(), 16); size > 0;
                 size = Integer.parseInt(line(in).trim(), 16)) {
                chunks.writeBytes(in.readNBytes(size));
                line(in);
            }
            body = chunks.toByteArray();
        } else {
            body = readAll(in);
        }
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException reset) {
            return new byte[0];
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        try {
            b = in.read();
        } catch (SocketException reset) {
            return null;
        }
        if (b < 0) {
            return null;
        }
        while (b >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
            b = in.read();
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
