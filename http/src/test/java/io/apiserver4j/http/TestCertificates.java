/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway PKI for TLS tests, made with the JDK's {@code keytool}: a CA, a server certificate
 * for 127.0.0.1/localhost and client certificates, written as PEM files.
 */
public final class TestCertificates {
  private static final String PASS = "changeit";

  public final Path dir;
  public final Path caCert;
  public final Path serverCert;
  public final Path serverKey;

  private TestCertificates(Path dir) {
    this.dir = dir;
    this.caCert = dir.resolve("ca.pem");
    this.serverCert = dir.resolve("server.pem");
    this.serverKey = dir.resolve("server-key.pem");
  }

  /** A CA and a server certificate (EC key) in {@code dir}. */
  public static TestCertificates create(Path dir) {
    TestCertificates c = new TestCertificates(dir);
    c.keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048",
        "-dname", "CN=apiserver4j-test-ca", "-ext", "bc:c", "-validity", "2",
        "-keystore", c.store("ca"));
    c.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", c.store("ca"),
        "-file", c.caCert.toString());
    c.issue("server", "CN=localhost", "EC", "san=ip:127.0.0.1,dns:localhost", c.serverCert,
        c.serverKey);
    return c;
  }

  /** A client certificate signed by the CA: subject {@code dname}, e.g. {@code CN=alice,O=devs}. */
  public Path[] client(String alias, String dname) {
    Path cert = dir.resolve(alias + ".pem");
    Path key = dir.resolve(alias + "-key.pem");
    issue(alias, dname, "RSA", null, cert, key);
    return new Path[] {cert, key};
  }

  /** A PKCS#12 key store holding a client's key and certificate (password {@code changeit}). */
  public Path clientKeyStore(String alias) {
    return Path.of(store(alias));
  }

  public static char[] password() {
    return PASS.toCharArray();
  }

  private void issue(String alias, String dname, String alg, String san, Path certOut,
      Path keyOut) {
    keytool("-genkeypair", "-alias", alias, "-keyalg", alg, "-dname", dname, "-validity", "2",
        "-keystore", store(alias));
    Path csr = dir.resolve(alias + ".csr");
    keytool("-certreq", "-alias", alias, "-keystore", store(alias), "-file", csr.toString());
    List<String> args = new ArrayList<>(List.of("-gencert", "-rfc", "-alias", "ca",
        "-keystore", store("ca"), "-infile", csr.toString(), "-outfile", certOut.toString(),
        "-validity", "2"));
    if (san != null) {
      args.add("-ext");
      args.add(san);
    }
    keytool(args.toArray(new String[0]));
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(Path.of(store(alias)))) {
        ks.load(in, password());
      }
      PrivateKey key = (PrivateKey) ks.getKey(alias, password());
      Files.writeString(keyOut, pem("PRIVATE KEY", key.getEncoded()));
      // put the signed chain back into the client's store, for clients that take a key store
      Certificate signed = java.security.cert.CertificateFactory.getInstance("X.509")
          .generateCertificate(Files.newInputStream(certOut));
      Certificate ca = java.security.cert.CertificateFactory.getInstance("X.509")
          .generateCertificate(Files.newInputStream(caCert));
      ks.setKeyEntry(alias, key, password(), new Certificate[] {signed, ca});
      try (var out = Files.newOutputStream(Path.of(store(alias)))) {
        ks.store(out, password());
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot export key of " + alias, e);
    }
  }

  static String pem(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + label + "-----\n";
  }

  private String store(String alias) {
    return dir.resolve(alias + ".p12").toString();
  }

  private void keytool(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", PASS, "-keypass", PASS,
        "-noprompt"));
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run keytool", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
