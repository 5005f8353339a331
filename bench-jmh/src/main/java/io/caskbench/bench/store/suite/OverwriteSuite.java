package io.caskbench.bench.store.suite;

import io.caskbench.bench.Suite;
import io.caskbench.bench.store.overwrite.OverwriteProfiler;
import io.caskbench.bench.store.sustained.SustainedOverwrite;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code overwrite} suite: {@link SustainedOverwrite} on BitCask (automatic merge at its defaults and
 * tuned) and RocksDB (leveled compaction at its defaults and tuned), uniform and Zipfian, 100-byte and
 * 1 KiB values, at a fixed arrival rate and at full speed. Each row is one long run per fork, which writes
 * its time series beside the results; one fork per row, as a row of the full profile takes over ten
 * minutes.
 *
 * <p>Profiles: full, every row (32), 2M keys and 600 s per row (merges and compactions run many times),
 * about 6 hours; quick, about 3 minutes in all: the four store settings, uniform and Zipfian, 100-byte
 * values at full speed only (8 rows), 200k keys and 15 s per row (about 25 s each with the fork's start and
 * the fill), enough for a few merges and compactions and for the halves' throughput, not for the
 * minutes a figure needs; smoke, 10k keys, one skew, one value size and the fixed rate, 2 s per row.
 */
public final class OverwriteSuite implements Suite {

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public OverwriteSuite() {
    }

    @Override
    public String name() {
        return "overwrite";
    }

    @Override
    public String description() {
        return "sustained overwrite of a fixed key space: space and write amplification, throughput and tail "
                + "over time, BitCask against RocksDB";
    }

    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        ChainedOptionsBuilder options = new OptionsBuilder().include("\\.SustainedOverwrite\\.")
                .shouldFailOnError(true).addProfiler(OverwriteProfiler.class).forks(1)
                .warmupIterations(0).measurementIterations(1);
        // JMH stops an iteration after 10 minutes by default; one iteration here is the whole run.
        return switch (profile) {
            case SMOKE -> options.timeout(TimeValue.minutes(2)).param("keyCount", "10000").param("seconds", "2")
                    .param("intervalMillis", "500").param("valueSize", "100").param("skew", "ZIPFIAN")
                    .param("rate", "2000").param("threads", "2");
            case QUICK -> options.timeout(TimeValue.minutes(2)).param("keyCount", "200000").param("seconds", "15")
                    .param("valueSize", "100").param("rate", "0");
            case FULL -> options.timeout(TimeValue.minutes(45));
        };
    }
}
