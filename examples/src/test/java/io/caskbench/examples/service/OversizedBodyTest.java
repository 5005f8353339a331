package io.caskbench.examples.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upload over the body limit, as a client that streams its body while it reads the answer sees
 * it (curl does): the whole 413 problem, no connection reset, and a connection that answers the
 * next request. Raw HTTP over a loopback socket, so the test sees exactly what the server sends.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a hang guard, not a speed limit
class OversizedBodyTest {

    /** Far over the 16 KiB limit, and over the 64 KiB the JDK's server drains by itself when it closes. */
    private static final int BODY_BYTES = 2 << 20;

    @TempDir
    Path dir;

    /** A response: status, headers as received, and the body its Content-Length announced. */
    private record Response(int status, String head, String body) {
    }

    @Test
    void aChunkedUploadOverTheLimitGetsItsProblemAndTheConnectionLives() throws Exception {
        String head = "PUT /buckets/photos/objects/big.png HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        uploadThenAskAgain(head, out -> {
            byte[] chunk = new byte[8192];
            Arrays.fill(chunk, (byte) 'x');
            for (int sent = 0; sent < BODY_BYTES; sent += chunk.length) {
                out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(chunk);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        });
    }

    @Test
    void anUploadWithAContentLengthOverTheLimitGetsItsProblemAndTheConnectionLives() throws Exception {
        String head = "PUT /buckets/photos/objects/big.png HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + BODY_BYTES + "\r\n\r\n";
        uploadThenAskAgain(head, out -> {
            byte[] block = new byte[8192];
            Arrays.fill(block, (byte) 'x');
            for (int sent = 0; sent < BODY_BYTES; sent += block.length) {
                out.write(block);
            }
        });
    }

    /** What a client writes after the request's head. */
    private interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Sends {@code head} and streams the body on another thread while this one reads the answer,
     * then asks {@code /health} on the same connection.
     */
    private void uploadThenAskAgain(String head, Body body) throws Exception {
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try (ObjectMetaServer server = ObjectMetaServer.start(ServiceConfig.defaults(dir));
             Socket socket = new Socket(server.address().getAddress(), server.address().getPort())) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            Future<?> upload = writer.submit(() -> {
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                body.writeTo(out);
                out.flush();
                return null;
            });

            Response refused = read(in);
            assertThat(refused.status()).as(refused.head()).isEqualTo(413);
            assertThat(refused.head().toLowerCase(Locale.ROOT)).contains("content-type: application/problem+json");
            assertThat(refused.body()).contains("\"status\":413").contains("body larger than 16384 bytes");
            upload.get(60, TimeUnit.SECONDS); // the whole body went out: no reset cut it off

            out.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Response health = read(in);
            assertThat(health.status()).as("the same connection answers the next request").isEqualTo(200);
        } finally {
            writer.shutdownNow();
        }
    }

    /** Reads one response: the status line and headers, then as many body bytes as Content-Length says. */
    private static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection ended inside a response's head: " + head.toString(StandardCharsets.US_ASCII));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int status = Integer.parseInt(text.substring(9, 12));
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            throw new IOException("the connection ended after " + body.length + " of " + length + " body bytes");
        }
        return new Response(status, text, new String(body, StandardCharsets.UTF_8));
    }
}
