package io.caskbench.bench.store.suite;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.single.PeersSingleThread;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code one} suite: one number in about two minutes from a fresh clone, build included. BitCask
 * MAPPED's single-thread get at the headline point (1M keys, 100-byte values, random order), one fork,
 * two warm-up and three measured iterations of a second. One fork gives no spread: the figure shows that
 * everything works and its order of magnitude, not a result to compare.
 */
public final class OneSuite extends PeerSuite {

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public OneSuite() {
    }

    @Override
    public String name() {
        return "one";
    }

    @Override
    public String description() {
        return "one number quickly: BitCask MAPPED's single-thread get at 1M keys, one fork (no spread)";
    }

    /** The same in every profile but smoke, which shortens it as it shortens every suite. */
    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        // Its own options, not the store suite's with some changed: JMH adds a parameter's values up.
        ChainedOptionsBuilder get = StoreSuite.base(profile)
                .include(StoreSuite.pattern(PeersSingleThread.class) + "get$")
                .param("keyCount", profile == Profile.SMOKE ? StoreSuite.SMOKE_KEYS : StoreSuite.POINT)
                .param("valueSize", "100").param("order", "RANDOM").param("store", StoreKind.BITCASK_MAPPED.name());
        return List.of(profile == Profile.SMOKE ? get : get.forks(1).warmupIterations(2)
                .warmupTime(TimeValue.seconds(1)).measurementIterations(3).measurementTime(TimeValue.seconds(1)));
    }

    /** The number itself, in words: there is nothing to compare it with. */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        StringBuilder text = new StringBuilder();
        for (ResultRow row : rows) {
            text.append(String.format(Locale.ROOT, "%s, %s keys of 16 bytes, %s-byte values, %s order: %,.0f %s%n",
                    row.name() + " " + row.param("store"), row.param("keyCount"), row.param("valueSize"), row.param("order"), row.score(),
                    row.unit()));
        }
        text.append("One fork: no spread, so not a figure to compare; the default run (the store suite) measures"
                + " it with three forks beside every peer.\n");
        return Optional.of(text.toString());
    }
}
