package io.caskbench.examples.service;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.ProtostuffCodec;
import io.caskbench.bitcask.SyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line: flags, environment defaults, and a real SIGTERM to a real process. */
class ObjectMetaServiceTest {

    @TempDir
    Path dir;

    @Test
    void flagsFillTheConfiguration() {
        CommandLine cli = ObjectMetaService.commandLine();
        cli.parseArgs("--data-dir", dir.toString(), "--bind", "0.0.0.0", "--port", "9090", "--backend", "file_channel",
                "--sync", "ALWAYS", "--threads", "3", "--queue", "5", "--max-body", "100", "--shutdown-grace", "1",
                "--merge-check", "7");
        ServiceConfig config = ((ObjectMetaService) cli.getCommand()).config();

        assertThat(config).isEqualTo(new ServiceConfig(dir, "0.0.0.0", 9090, Backend.FILE_CHANNEL, SyncPolicy.ALWAYS,
                3, 5, 100, Duration.ofSeconds(1), Duration.ofSeconds(7)));
    }

    @Test
    void defaultsAreLoopbackAndTheDocumentedDataDirectory() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv().keySet().stream().noneMatch(k -> k.startsWith("CASKBENCH_")),
                "CASKBENCH_* variables set in this environment");
        CommandLine cli = ObjectMetaService.commandLine();
        cli.parseArgs();
        ServiceConfig config = ((ObjectMetaService) cli.getCommand()).config();

        assertThat(config.bind()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(8080);
        assertThat(config.dataDir()).isEqualTo(Path.of("./data/objects"));
        assertThat(config.backend()).isEqualTo(Backend.MAPPED);
        assertThat(config.syncPolicy()).isEqualTo(SyncPolicy.NONE);
    }

    @Test
    void badFlagsExitWith2AndHelpWith0() {
        assertThat(ObjectMetaService.commandLine().setErr(new java.io.PrintWriter(java.io.Writer.nullWriter()))
                .execute("--backend", "tape")).isEqualTo(2);
        assertThat(ObjectMetaService.commandLine().setOut(new java.io.PrintWriter(java.io.Writer.nullWriter()))
                .execute("--help")).isZero();
    }

    /**
     * Starts the service as its own JVM, configured through environment variables and a flag,
     * stores an object, sends SIGTERM and checks that the shutdown hook closed the store.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard, not a speed limit
    void sigtermClosesTheStoreAndKeepsTheData() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                // the service's own logging, not the quieter one of the tests
                "-Dlogback.configurationFile=logback.xml",
                ObjectMetaService.class.getName(), "--backend", "FILE_CHANNEL");
        pb.environment().put("CASKBENCH_DATA_DIR", dir.toString());
        pb.environment().put("CASKBENCH_PORT", "0");
        ServiceProcess service = ServiceProcess.start(pb);
        Process process = service.process();
        try {
            ApiClient client = new ApiClient(service.ready().get(4, TimeUnit.MINUTES));
            assertThat(client.put("photos", "kept.png", ApiClient.body(7, "9e107d9d372bb6826bd81d3542a419d6", "image/png"))
                    .status()).isEqualTo(201);

            // SIGTERM. Not Process.destroy(): that also closes our end of the pipe, and the
            // shutdown hook's log lines would be lost.
            assertThat(process.toHandle().destroy()).isTrue();
            assertThat(process.waitFor(4, TimeUnit.MINUTES)).isTrue();
            service.awaitOutput();
        } finally {
            process.destroyForcibly();
        }
        List<String> output = service.lines();

        assertThat(process.exitValue()).as(String.join("\n", output)).isEqualTo(143); // 128 + SIGTERM
        assertThat(output).anyMatch(l -> l.contains("shutting down")).anyMatch(l -> l.contains("store closed"));
        assertThat(output).anyMatch(l -> l.contains("backend FILE_CHANNEL"));
        // The lock is released and the object is there.
        try (BitCask db = BitCask.open(dir)) {
            ObjectMeta kept = db.typed(ProtostuffCodec.of(ObjectMeta.class)).get(ObjectStore.storeKey("photos", "kept.png"));
            assertThat(kept.size()).isEqualTo(7);
        }
    }
}
