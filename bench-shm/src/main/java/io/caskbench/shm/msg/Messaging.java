package io.caskbench.shm.msg;

import io.caskbench.shm.JmhResults;
import io.caskbench.shm.NativeBuild;
import io.caskbench.shm.Profile;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.SampleBuffer;

/**
 * The seed's real question: can shared memory replace UDP between a Java program and a C program?
 * Measures, for shared memory and UDP, with a Java and a C peer, at 64 B and 4 KiB:
 * <ul>
 *   <li>{@value #ROUND_TRIP}: round-trip latency percentiles (JMH sample mode, microseconds);</li>
 *   <li>{@value #ONE_WAY}: one-way throughput to a sink (messages per second, plus MB/s).</li>
 * </ul>
 * The client is always this JVM. Each measurement is the profile's number of sessions, each with a fresh
 * peer process (the "forks" of the result). Sessions fail (and nothing is reported) if the peer reports a
 * single out-of-order or torn message.
 */
public final class Messaging {

    private static final String PREFIX = "io.caskbench.shm.msg.Messaging.";
    /** Benchmark name of the round-trip measurements. */
    public static final String ROUND_TRIP = PREFIX + "roundTrip";
    /** Benchmark name of the one-way measurements. */
    public static final String ONE_WAY = PREFIX + "oneWay";
    /** Payload sizes measured. */
    public static final List<Integer> PAYLOADS = List.of(64, 4096);

    private Messaging() {
    }

    /** Runs every measurement the include filter lets through; C peers only if {@code build} is available. */
    public static List<RunResult> run(Profile profile, NativeBuild build, Predicate<String> include, PrintStream log)
            throws IOException {
        List<Session.Peer> peers = new ArrayList<>(List.of(Session.Peer.JAVA));
        if (build.available()) {
            peers.add(Session.Peer.C);
        }
        List<RunResult> results = new ArrayList<>();
        for (Session.Peer peer : peers) {
            for (Session.Transport transport : Session.Transport.values()) {
                for (int payload : PAYLOADS) {
                    for (String name : List.of(ROUND_TRIP, ONE_WAY)) {
                        if (!include.test(name)) {
                            continue;
                        }
                        log.printf("messaging %s transport=%s peer=%s payload=%d%n", name.substring(PREFIX.length()),
                                transport.label(), peer.label(), payload);
                        try {
                            results.add(name.equals(ROUND_TRIP)
                                    ? roundTrip(profile.messaging(), profile.forks(), transport, peer, payload, build)
                                    : oneWay(profile.messaging(), profile.forks(), transport, peer, payload, build));
                        } catch (PeerStalledException e) {
                            // a starved peer on a shared machine loses one measurement, not the run;
                            // a wrong or torn message is a bug and still fails the run
                            log.println("messaging: SKIPPED, peer stalled: " + e.getMessage());
                        }
                    }
                }
            }
        }
        return results;
    }

    static RunResult roundTrip(Profile.Messaging plan, int forks, Session.Transport transport, Session.Peer peer,
                               int payload, NativeBuild build) throws IOException {
        return sessions(forks, transport, peer, true, build, command -> spec(ROUND_TRIP, Mode.SampleTime,
                TimeUnit.MICROSECONDS, plan, transport, peer, payload, command, build), s -> {
                    List<List<Result<?>>> iterations = new ArrayList<>();
                    for (int i = 0; i < plan.warmups() + plan.iterations(); i++) {
                        SampleBuffer samples = new SampleBuffer();
                        s.roundTrips(plan.roundTrips(), payload, plan.iterationCapMillis(), samples::add);
                        if (i >= plan.warmups()) {
                            SampleTimeResult rtt = new SampleTimeResult(ResultRole.PRIMARY, "roundTrip", samples,
                                    TimeUnit.MICROSECONDS);
                            // Per-iteration percentiles keep each session's own figure, for the spread between them.
                            iterations.add(List.of(rtt,
                                    new ScalarResult("p50", rtt.getStatistics().getPercentile(50), "us",
                                            AggregationPolicy.AVG),
                                    new ScalarResult("p99", rtt.getStatistics().getPercentile(99), "us",
                                            AggregationPolicy.AVG)));
                        }
                    }
                    return iterations;
                });
    }

    static RunResult oneWay(Profile.Messaging plan, int forks, Session.Transport transport, Session.Peer peer,
                            int payload, NativeBuild build) throws IOException {
        int count = payload <= 64 ? plan.smallMessages() : plan.largeMessages();
        return sessions(forks, transport, peer, false, build, command -> spec(ONE_WAY, Mode.Throughput,
                TimeUnit.SECONDS, plan, transport, peer, payload, command, build), s -> {
                    List<List<Result<?>>> iterations = new ArrayList<>();
                    for (int i = 0; i < plan.warmups() + plan.iterations(); i++) {
                        long t0 = System.nanoTime();
                        int sent = s.oneWay(count, payload, plan.iterationCapMillis());
                        long ns = System.nanoTime() - t0;
                        if (i >= plan.warmups()) {
                            iterations.add(List.of(
                                    new ThroughputResult(ResultRole.PRIMARY, "oneWay", sent, ns, TimeUnit.SECONDS),
                                    new ScalarResult("MB/s", sent * (double) payload * 1e3 / ns, "MB/s",
                                            AggregationPolicy.AVG)));
                        }
                    }
                    return iterations;
                });
    }

    /** The measured iterations of one session. */
    @FunctionalInterface
    private interface Iterations {
        List<List<Result<?>>> measure(Session s) throws IOException;
    }

    /**
     * {@code forks} sessions, each with a fresh peer (echo or sink), measured by {@code measure}; every
     * session's messages must all be accounted for by the peer, and each becomes one fork of the result.
     */
    private static RunResult sessions(int forks, Session.Transport transport, Session.Peer peer, boolean echo,
            NativeBuild build, Function<List<String>, JmhResults.Spec> spec, Iterations measure) throws IOException {
        List<List<List<Result<?>>>> runs = new ArrayList<>();
        List<String> command = List.of();
        for (int fork = 0; fork < forks; fork++) {
            try (Session s = Session.start(transport, peer, echo, false, build)) {
                List<List<Result<?>>> iterations = measure.measure(s);
                runs.add(withLost(iterations, checked(s.stop(), s, echo ? 0 : s.sent())));
                command = s.command();
            }
        }
        return JmhResults.runs(spec.apply(command), runs);
    }

    /**
     * The peer's report, if it saw no error; {@code expected} data messages (0: whatever was sent in
     * round trips) must all be accounted for as received or, over UDP only, lost.
     */
    private static Report checked(Report report, Session s, long expected) throws IOException {
        long sent = expected > 0 ? expected : s.sent();
        if (report.errors() != 0 || report.received() + report.lost() != sent) {
            throw new IOException("peer " + s.command() + " reported " + report + " for " + sent + " messages");
        }
        return report;
    }

    /** Adds the lost-message count as a secondary result (summed over iterations, so on the last one). */
    private static List<List<Result<?>>> withLost(List<List<Result<?>>> iterations, Report report) {
        List<List<Result<?>>> out = new ArrayList<>();
        for (int i = 0; i < iterations.size(); i++) {
            List<Result<?>> it = new ArrayList<>(iterations.get(i));
            it.add(new ScalarResult("lost", i == iterations.size() - 1 ? report.lost() : 0, "msgs",
                    AggregationPolicy.SUM));
            out.add(it);
        }
        return out;
    }

    private static JmhResults.Spec spec(String name, Mode mode, TimeUnit unit, Profile.Messaging plan,
                                        Session.Transport transport, Session.Peer peer, int payload,
                                        List<String> command, NativeBuild build) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("transport", transport.label());
        params.put("peer", peer.label());
        params.put("payload", Integer.toString(payload));
        String version = "client " + Runtime.version() + (peer == Session.Peer.C ? ", peer " + build.compiler() : "");
        return new JmhResults.Spec(name, mode, params, plan.warmups(),
                TimeValue.milliseconds(plan.iterationCapMillis()), unit,
                System.getProperty("java.home") + "/bin/java", command, version);
    }
}
