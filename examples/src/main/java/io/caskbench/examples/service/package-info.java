/**
 * An object-metadata HTTP service that embeds a BitCask store: {@link
 * io.caskbench.examples.service.ObjectMetaService} is the command line, {@link
 * io.caskbench.examples.service.ObjectMetaServer} the server, {@link
 * io.caskbench.examples.service.ObjectStore} the storage layer (over an embedded store, or a client of a
 * replicated one: {@code RecordStore}) and {@link
 * io.caskbench.examples.service.ObjectMeta} the stored value.
 */
package io.caskbench.examples.service;
