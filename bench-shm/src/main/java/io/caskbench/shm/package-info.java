/** bench-shm: placeholder until its issue lands. */
package io.caskbench.shm;
