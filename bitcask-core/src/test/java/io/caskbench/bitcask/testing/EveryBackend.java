package io.caskbench.bitcask.testing;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test run once for each backend of this JVM ({@link Backends#available()}), given as its one
 * {@code Backend} parameter: what {@code @EnumSource(Backend.class)} would be if every backend ran
 * on every JDK.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest
@MethodSource("io.caskbench.bitcask.testing.Backends#available")
public @interface EveryBackend {
}
