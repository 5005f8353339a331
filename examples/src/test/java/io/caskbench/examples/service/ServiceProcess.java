package io.caskbench.examples.service;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service running as a process of its own, as an operator starts it: its merged stdout and
 * stderr lines, collected as they come, and the base URI it logs once it is ready.
 */
final class ServiceProcess {

    private static final Pattern READY = Pattern.compile("ready: (http://127\\.0\\.0\\.1:\\d+)");

    private final Process process;
    private final Thread reader;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<URI> ready = new CompletableFuture<>();

    private ServiceProcess(Process process) {
        this.process = process;
        this.reader = new Thread(this::read, "service-output");
        reader.start();
    }

    /** Starts what {@code builder} describes, with stderr merged into stdout. */
    static ServiceProcess start(ProcessBuilder builder) throws IOException {
        return new ServiceProcess(builder.redirectErrorStream(true).start());
    }

    /** The process. */
    Process process() {
        return process;
    }

    /** Completes with the service's base URI once it logs that it is ready; fails if it exits first. */
    CompletableFuture<URI> ready() {
        return ready;
    }

    /** Waits until the process has closed its output, so that {@link #output()} is complete. */
    void awaitOutput() throws InterruptedException {
        reader.join();
    }

    /** The lines so far. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    /** The lines so far, as one text. */
    String output() {
        return String.join("\n", lines());
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(line);
                Matcher m = READY.matcher(line);
                if (m.find()) {
                    ready.complete(URI.create(m.group(1)));
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new AssertionError("service exited before it was ready: " + output()));
    }
}
