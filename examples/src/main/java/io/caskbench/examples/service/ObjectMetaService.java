package io.caskbench.examples.service;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.SyncPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Command-line entry point of the object-metadata service. Every flag has an environment variable
 * that sets its default, so the same build runs unchanged under a process manager or in a container:
 *
 * <pre>
 * mvn -B -pl examples -am package -DskipTests
 * java -jar examples/target/object-meta-service.jar                          # ./data/objects, 127.0.0.1:8080
 * java -jar examples/target/object-meta-service.jar --port 9090 --sync ALWAYS
 * CASKBENCH_BACKEND=FILE_CHANNEL java -jar examples/target/object-meta-service.jar
 * java -jar examples/target/object-meta-service.jar --raft-peers n1=127.0.0.1:7001,n2=127.0.0.1:7002,n3=127.0.0.1:7003
 * </pre>
 *
 * With {@code --raft-peers} the service keeps no store of its own: it is a client of running
 * {@code bitcask-raft} replicas, and {@code /ready} answers 200 only while they name a leader.
 *
 * SIGTERM or Ctrl-C runs {@link ObjectMetaServer#close()} from a shutdown hook: in-flight requests
 * finish, then the store is closed.
 */
@Command(name = "object-meta-service", mixinStandardHelpOptions = true, version = "caskbench object-meta-service 0.1.0",
        description = "Serves object metadata stored in an embedded BitCask store over HTTP.",
        sortOptions = false)
public final class ObjectMetaService implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(ObjectMetaService.class);

    /** How long a request waits for a majority of the replicas of a replicated store before its 503. */
    static final Duration RAFT_TIMEOUT = Duration.ofSeconds(5);

    @Option(names = "--data-dir", defaultValue = "${env:CASKBENCH_DATA_DIR:-./data/objects}",
            description = "Store directory, created if missing (env CASKBENCH_DATA_DIR; default ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--raft-peers", defaultValue = "${env:CASKBENCH_RAFT_PEERS:-}",
            description = "Serve a replicated store instead: the running bitcask-raft replicas, as their --peers "
                    + "(n1=host:port,...; env CASKBENCH_RAFT_PEERS; default none: the embedded store in --data-dir).")
    String raftPeers;

    @Option(names = "--raft-groups", defaultValue = "${env:CASKBENCH_RAFT_GROUPS:-1}",
            description = "With --raft-peers: the replicas' --groups (env CASKBENCH_RAFT_GROUPS; default ${DEFAULT-VALUE}).")
    int raftGroups;

    @Option(names = "--bind", defaultValue = "${env:CASKBENCH_BIND:-127.0.0.1}",
            description = "Address to listen on (env CASKBENCH_BIND; default ${DEFAULT-VALUE}: this machine only).")
    String bind;

    @Option(names = "--port", defaultValue = "${env:CASKBENCH_PORT:-8080}",
            description = "TCP port, 0 for any free one (env CASKBENCH_PORT; default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--backend", defaultValue = "${env:CASKBENCH_BACKEND:-MAPPED}",
            description = "Segment I/O: ${COMPLETION-CANDIDATES} (env CASKBENCH_BACKEND; default ${DEFAULT-VALUE}).")
    Backend backend;

    @Option(names = "--sync", defaultValue = "${env:CASKBENCH_SYNC:-NONE}",
            description = "When writes are forced to disk: ${COMPLETION-CANDIDATES} (env CASKBENCH_SYNC; default ${DEFAULT-VALUE}).")
    SyncPolicy sync;

    @Option(names = "--threads", defaultValue = "${env:CASKBENCH_THREADS:-8}",
            description = "Worker threads (env CASKBENCH_THREADS; default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--queue", defaultValue = "${env:CASKBENCH_QUEUE:-256}",
            description = "Requests that may wait for a worker (env CASKBENCH_QUEUE; default ${DEFAULT-VALUE}).")
    int queue;

    @Option(names = "--max-body", defaultValue = "${env:CASKBENCH_MAX_BODY:-16384}",
            description = "Largest request body in bytes (env CASKBENCH_MAX_BODY; default ${DEFAULT-VALUE}).")
    int maxBody;

    @Option(names = "--shutdown-grace", defaultValue = "${env:CASKBENCH_SHUTDOWN_GRACE:-5}",
            description = "Seconds shutdown waits for requests in progress (env CASKBENCH_SHUTDOWN_GRACE; default ${DEFAULT-VALUE}).")
    int shutdownGraceSeconds;

    @Option(names = "--merge-check", defaultValue = "${env:CASKBENCH_MERGE_CHECK:-60}",
            description = "Seconds between checks whether the store is due a merge, 0 for never (env CASKBENCH_MERGE_CHECK; default ${DEFAULT-VALUE}).")
    int mergeCheckSeconds;

    /** Runs the service until the JVM is asked to stop; exits with 1 when it cannot start, 2 on bad flags. */
    public static void main(String[] args) {
        int code = commandLine().execute(args);
        // Exit only on failure: after a SIGTERM the JVM is already shutting down, and System.exit would block.
        if (code != 0) {
            System.exit(code);
        }
    }

    /** The picocli command line, with enum values accepted in any case. */
    static CommandLine commandLine() {
        return new CommandLine(new ObjectMetaService()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    /** The configuration the parsed flags describe. */
    ServiceConfig config() {
        return new ServiceConfig(dataDir, bind, port, backend, sync, threads, queue, maxBody,
                Duration.ofSeconds(shutdownGraceSeconds), Duration.ofSeconds(mergeCheckSeconds));
    }

    /**
     * Listens as the flags ask, the store opening meanwhile: the embedded store in {@code --data-dir}, or,
     * with {@code --raft-peers}, a client of those replicas.
     */
    ObjectMetaServer listen() throws IOException {
        if (raftPeers.isEmpty()) {
            return ObjectMetaServer.listen(config());
        }
        return ObjectMetaServer.listen(config(), c -> ObjectStore.replicated(raftPeers, raftGroups, RAFT_TIMEOUT));
    }

    @Override
    public Integer call() throws InterruptedException {
        // The hook goes in before the server starts, so a SIGTERM at any moment after "ready" closes the store.
        AtomicReference<ObjectMetaServer> running = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                ObjectMetaServer server = running.get();
                if (server != null) {
                    server.close();
                }
            } finally {
                stopped.countDown();
            }
        }, "shutdown"));
        try {
            // Listening first, so /health answers and /ready says "opening" while a large store is scanned.
            running.set(listen());
            log.info("listening on {}; opening the store", running.get().uri());
            running.get().awaitOpen();
        } catch (IOException | BitCaskException | IllegalArgumentException e) {
            // The message only: it names the port or directory, and a class name would tell an operator nothing.
            log.error("cannot start: {}", e.getMessage() == null ? e.toString() : e.getMessage());
            return 1;
        }
        log.info("ready: {} (SIGTERM or Ctrl-C stops it)", running.get().uri());
        stopped.await();
        return 0;
    }
}
