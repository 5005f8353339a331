package io.caskbench.bench.store;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * Settings every store benchmark shares; JMH reads class annotations up the superclass chain.
 *
 * <p>The fork flags are those the peers need, on JDK 17 and on JDK 25, and they do nothing to the other
 * stores: Chronicle Map's analytics off (otherwise it writes to the home directory and calls out to the
 * network) and the JDK internals Chronicle Map and lmdbjava reach into opened; lmdbjava's per-call
 * checks off, as its own benchmarks run it. Results are operations per second.
 */
@Fork(value = 1, jvmArgsAppend = {
    "-Dchronicle.analytics.disable=true",
    "-Dchronicle.announcer.disable=true",
    "-Dlmdbjava.disable.checks=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.util=ALL-UNNAMED",
    "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED"
})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public abstract class StoreBenchmark {
}
