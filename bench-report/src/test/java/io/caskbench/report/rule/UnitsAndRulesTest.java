package io.caskbench.report.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.caskbench.report.chart.Charts;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.Units;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnitsAndRulesTest {

    @Test
    void unitsKnowTheirDirectionAndConvert() {
        assertThat(Units.isRate("ops/s")).isTrue();
        assertThat(Units.isTimePer("us/op")).isTrue();
        assertThat(Units.isRate("us/op")).isFalse();
        assertThat(Units.convert(1500, "ops/ms", "ops/s")).hasValue(1_500_000);
        assertThat(Units.convert(2000, "us/op", "ms/op")).hasValue(2.0);
        assertThat(Units.convert(1, "ops/s", "us/op")).isEmpty();
        assertThat(Units.secondsPerItem(2e6, "ops/s").getAsDouble()).isCloseTo(5e-7, offset(1e-15));
        assertThat(Units.secondsPerItem(500, "ns/op").getAsDouble()).isCloseTo(5e-7, offset(1e-15));
        assertThat(Units.fromSecondsPerItem(5e-7, "ops/s").getAsDouble()).isCloseTo(2e6, offset(1e-6));
        assertThat(Units.fromSecondsPerItem(5e-7, "ns/op").getAsDouble()).isCloseTo(500, offset(1e-9));
        assertThat(Units.format(2_910_000)).isEqualTo("2,910,000");
        assertThat(Units.format(0.25)).isEqualTo("0.250");
        assertThat(Units.format(Double.NaN)).isEqualTo("n/a");
        assertThat(Charts.shortNumber(3_162_277)).isEqualTo("3.16M");
        assertThat(Charts.shortNumber(316.2)).isEqualTo("316");
        assertThat(Charts.shortNumber(0.1)).isEqualTo("0.1");
    }

    @Test
    void storeRuleComparesEveryBackendAndPeerWithBitCaskMapped() {
        JmhResult mapped = row("x.PeersBenchmark.get", Map.of("store", "BITCASK_MAPPED", "valueSize", "100"), 2e6, "ops/s");
        JmhResult rocks = row("x.PeersBenchmark.get", Map.of("store", "ROCKSDB", "valueSize", "100"), 5e5, "ops/s");
        JmhResult otherSize = row("x.PeersBenchmark.get", Map.of("store", "ROCKSDB", "valueSize", "4080"), 1e5, "ops/s");
        ReferenceRule rule = Suites.ruleFor("store");
        List<JmhResult> pool = List.of(mapped, rocks, otherSize);
        assertThat(rule.isReference(mapped)).isTrue();
        assertThat(rule.ratio(rocks, pool)).hasValue(0.25);
        assertThat(rule.ratio(otherSize, pool)).as("no MAPPED row with valueSize=4080").isEmpty();
        assertThat(ReferenceRule.reading(0.25, true)).isEqualTo("4.00x slower");
        assertThat(ReferenceRule.reading(0.25, false)).isEqualTo("4.00x faster");
    }

    @Test
    void shmPairsJavaBackingsWithTheirCAnchors() {
        JmhResult cDisk = row("io.caskbench.shm.c.RegionAnchor.clear", Map.of("backing", "disk", "region", "64KiB"), 2.0, "us/op");
        JmhResult cAnon = row("io.caskbench.shm.c.RegionAnchor.clear", Map.of("backing", "anon", "region", "64KiB"), 1.0, "us/op");
        JmhResult seed = row("io.caskbench.shm.ClearBench.seedNewArray", Map.of("backing", "disk", "region", "64KiB"), 16000, "ns/op");
        JmhResult direct = row("io.caskbench.shm.ClearBench.putLongLoop", Map.of("backing", "direct", "region", "64KiB"), 3000, "ns/op");
        JmhResult array = row("io.caskbench.shm.HeapArrayBench.arrayFill", Map.of("region", "64KiB"), 1500, "ns/op");
        JmhResult libc = row("io.caskbench.shm.c.RegionAnchor.writeLibcRand", Map.of("backing", "disk", "region", "64KiB"), 9, "ns/op");
        List<JmhResult> pool = List.of(cDisk, cAnon, seed, direct, array, libc);
        ReferenceRule shm = Suites.ruleFor("shm-c");
        assertThat(shm).isSameAs(Suites.SHM);
        assertThat(Suites.ruleFor("shm-messaging")).isSameAs(Suites.SHM_MESSAGING);
        assertThat(shm.ratio(seed, pool).getAsDouble()).as("ns against us, disk against disk").isCloseTo(8.0, offset(1e-9));
        assertThat(shm.ratio(direct, pool).getAsDouble()).as("direct against anonymous").isCloseTo(3.0, offset(1e-9));
        assertThat(shm.ratio(array, pool).getAsDouble()).as("byte[] against anonymous").isCloseTo(1.5, offset(1e-9));
        assertThat(shm.isReference(libc)).as("the seed's rand() loop is shown, not used as reference").isFalse();
        assertThat(shm.group(seed)).isEqualTo("Clear 64KiB");
        assertThat(shm.variant(cDisk)).isEqualTo("C");
        assertThat(shm.variant(array)).isEqualTo("byte[]");
        assertThat(shm.category(array)).isEqualTo("backing=byte[]");
    }

    @Test
    void messagingComparesEachExchangeWithUdp() {
        JmhResult shm = row("io.caskbench.shm.msg.Messaging.roundTrip", Map.of("transport", "shm", "peer", "c", "payload", "64"), 1, "us/op");
        JmhResult udp = row("io.caskbench.shm.msg.Messaging.roundTrip", Map.of("transport", "udp", "peer", "c", "payload", "64"), 30, "us/op");
        JmhResult oneWayUdp = row("io.caskbench.shm.msg.Messaging.oneWay", Map.of("transport", "udp", "peer", "c", "payload", "64"), 2e5, "ops/s");
        assertThat(Suites.SHM_MESSAGING.ratio(shm, List.of(oneWayUdp, shm, udp)).getAsDouble())
                .as("round trip against round trip, not against one-way").isCloseTo(1 / 30.0, offset(1e-12));
    }

    @Test
    void unknownSuitesRenderWithoutReference() {
        ReferenceRule rule = Suites.ruleFor("mystery");
        JmhResult r = row("a.B.c", Map.of(), 1, "ops/s");
        assertThat(rule.suite()).isEqualTo("mystery");
        assertThat(rule.isReference(r)).isFalse();
        assertThat(rule.ratio(r, List.of(r))).isEmpty();
    }

    static JmhResult row(String benchmark, Map<String, String> params, double score, String unit) {
        String mode = Units.isRate(unit) ? "thrpt" : "avgt";
        return JmhResult.of(benchmark, mode, new java.util.TreeMap<>(params), Metric.of(score, score * 0.01, unit));
    }
}
