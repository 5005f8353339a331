/**
 * Single-thread benchmarks: get and put of every store at its main settings ({@link PeersSingleThread}),
 * BitCask's backends across store size, value size and read order ({@link BitCaskSingleThread}), and the
 * write floor a FILE_CHANNEL put is held against ({@link WriteFloor}).
 */
package io.caskbench.bench.store.single;
