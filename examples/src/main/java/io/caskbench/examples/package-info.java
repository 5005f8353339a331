/** examples: placeholder until its issue lands. */
package io.caskbench.examples;
