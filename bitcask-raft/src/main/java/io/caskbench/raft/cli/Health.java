package io.caskbench.raft.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.caskbench.raft.server.ReplicaServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Threading: the JDK's HTTP server thread answers; {@link #close} from any thread.
 *
 * <p>The health endpoints of a replica: {@code /health} answers 200 while the process serves,
 * {@code /ready} 200 when the replica sees a leader for every group and 503 when it does not
 * (an election under way, or no majority reachable).
 */
final class Health implements AutoCloseable {

    /** The HTTP server; started in the constructor. */
    private final HttpServer http;

    Health(InetSocketAddress address, ReplicaServer replica, int groups) {
        try {
            http = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the health endpoint to " + address, e);
        }
        http.createContext("/health", ex -> answer(ex, 200, "{\"live\":true}"));
        http.createContext("/ready", ex -> {
            StringBuilder leaders = new StringBuilder();
            for (int g = 0; g < groups; g++) {
                String leader = replica.leaderOf(g);
                leaders.append(g == 0 ? "" : ",").append(leader == null ? "null" : "\"" + leader + "\"");
            }
            boolean ready = replica.ready();
            answer(ex, ready ? 200 : 503, "{\"ready\":" + ready + ",\"leaders\":[" + leaders + "]}");
        });
        http.start();
    }

    /** The port it listens on. */
    int port() {
        return http.getAddress().getPort();
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
