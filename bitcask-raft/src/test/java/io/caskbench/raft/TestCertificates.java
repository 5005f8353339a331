package io.caskbench.raft;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

/**
 * Threading: the test thread.
 *
 * <p>Certificates made for a test: a certificate authority and a key pair it signs for 127.0.0.1,
 * usable by servers and clients alike, written as the PEM files {@link Tls} takes.
 */
public final class TestCertificates {

    private TestCertificates() {
    }

    /** Makes an authority named {@code caName} and a key it signs, in {@code dir}; the TLS files. */
    public static Tls make(Path dir, String caName) throws IOException, GeneralSecurityException, OperatorCreationException {
        Files.createDirectories(dir);
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(256);
        KeyPair ca = gen.generateKeyPair();
        KeyPair node = gen.generateKeyPair();
        Date from = Date.from(Instant.now().minus(Duration.ofHours(1)));
        Date to = Date.from(Instant.now().plus(Duration.ofDays(2)));
        X500Name caSubject = new X500Name("CN=" + caName);

        X509v3CertificateBuilder caCert = new JcaX509v3CertificateBuilder(caSubject, BigInteger.ONE, from, to, caSubject, ca.getPublic());
        caCert.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        caCert.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));

        X509v3CertificateBuilder nodeCert = new JcaX509v3CertificateBuilder(caSubject, BigInteger.TWO, from, to,
                new X500Name("CN=127.0.0.1"), node.getPublic());
        nodeCert.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
        nodeCert.addExtension(Extension.extendedKeyUsage, false,
                new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));

        JcaContentSignerBuilder signer = new JcaContentSignerBuilder("SHA256withECDSA");
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        byte[] caDer = converter.getCertificate(caCert.build(signer.build(ca.getPrivate()))).getEncoded();
        byte[] nodeDer = converter.getCertificate(nodeCert.build(signer.build(ca.getPrivate()))).getEncoded();

        Files.writeString(dir.resolve("ca.pem"), pem("CERTIFICATE", caDer));
        Files.writeString(dir.resolve("node.pem"), pem("CERTIFICATE", nodeDer));
        Files.writeString(dir.resolve("node.key"), pem("PRIVATE KEY", node.getPrivate().getEncoded()));
        return new Tls(dir.resolve("node.key").toFile(), dir.resolve("node.pem").toFile(), dir.resolve("ca.pem").toFile());
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
