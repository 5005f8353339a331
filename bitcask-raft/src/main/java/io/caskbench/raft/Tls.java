package io.caskbench.raft;

import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;

import java.io.File;
import java.util.Objects;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>Mutual TLS for replicas and clients: this party's private key and certificate chain, and the
 * certificate of the authority whose signature every peer's certificate must carry (PEM files).
 * A replica with TLS on refuses any connection that does not present such a certificate.
 *
 * @param privateKey the PKCS#8 private key, PEM
 * @param certChain  the certificate chain of the key, PEM
 * @param trustedCa  the certificate authority peers must be signed by, PEM
 */
public record Tls(File privateKey, File certChain, File trustedCa) {

    /** Checks that the files are named. */
    public Tls {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(certChain, "certChain");
        Objects.requireNonNull(trustedCa, "trustedCa");
    }

    /** Puts the TLS setting for server, client and admin connections into {@code parameters}. */
    public void applyTo(Parameters parameters) {
        GrpcTlsConfig conf = new GrpcTlsConfig(privateKey, certChain, trustedCa, true);
        GrpcConfigKeys.Server.setTlsConf(parameters, conf);
        GrpcConfigKeys.Client.setTlsConf(parameters, conf);
        GrpcConfigKeys.Admin.setTlsConf(parameters, conf);
        GrpcConfigKeys.TLS.setConf(parameters, conf);
    }
}
