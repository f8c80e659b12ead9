package io.partita.client;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * A node that answers what a test scripts, over real loopback HTTP/1.1, and records every request it read (request
 * line and body). Answers the partition table routes with one member, itself, when asked.
 * <b>Threads:</b> one accept thread and one thread per connection; the record is a concurrent list.
 */
final class FakeNode implements AutoCloseable {

    /** One request as the node read it. */
    record Request(String line, String body) {
    }

    private final ServerSocket server;
    private final Function<Request, String> answers;
    final List<Request> requests = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<Socket> sockets = new LinkedBlockingQueue<>();

    /** {@code answers} gives the whole raw HTTP answer for a request (status line, headers, body). */
    FakeNode(Function<Request, String> answers) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.answers = answers;
        Thread accept = new Thread(this::accept, "fake-node-accept");
        accept.setDaemon(true);
        accept.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    static String answer(int status, String headers, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return "HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\n" + headers + "Content-Length: "
                + bytes.length + "\r\n\r\n" + body;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                Thread serve = new Thread(() -> serve(socket), "fake-node-conn");
                serve.setDaemon(true);
                serve.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                String line = line(in);
                if (line == null) {
                    return;
                }
                int length = 0;
                for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
                    if (header.toLowerCase().startsWith("content-length:")) {
                        length = Integer.parseInt(header.substring(15).trim());
                    }
                }
                String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                Request request = new Request(line, body);
                requests.add(request);
                out.write(answers.apply(request).getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            // The client went away.
        } catch (RuntimeException e) {
            // The script threw: the connection closes without an answer, as when a node dies mid-request.
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return null;
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    /** A port nothing listens on right now, for a node that refuses connections. */
    static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
