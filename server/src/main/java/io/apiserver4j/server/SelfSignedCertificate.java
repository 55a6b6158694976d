/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * What kube-apiserver does without {@code --tls-cert-file}: a self-signed serving certificate
 * for {@code localhost} and {@code 127.0.0.1}, written as PEM into a directory (kube's
 * {@code --cert-dir}). The JDK has no public API to issue certificates, so the JDK's own
 * {@code keytool} makes the key pair; the PEM files are written from the key store it leaves.
 *
 * @param certificate the PEM certificate (also the CA a client trusts)
 * @param privateKey the PEM PKCS#8 private key
 */
record SelfSignedCertificate(Path certificate, Path privateKey) {

  /** Generates one into {@code dir}. */
  static SelfSignedCertificate generate(Path dir) {
    try {
      Files.createDirectories(dir);
      Path store = dir.resolve("apiserver.p12");
      String password = UUID.randomUUID().toString();
      Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
      Process p = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias",
          "apiserver", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "365",
          "-dname", "CN=localhost@apiserver4j", "-ext", "san=dns:localhost,ip:127.0.0.1",
          "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", password))
          .redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("keytool could not generate a serving certificate: "
            + output.strip());
      }
      KeyStore keys = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(store)) {
        keys.load(in, password.toCharArray());
      }
      Key key = keys.getKey("apiserver", password.toCharArray());
      Path cert = Files.writeString(dir.resolve("apiserver.crt"),
          pem("CERTIFICATE", keys.getCertificate("apiserver").getEncoded()));
      Path privateKey = Files.writeString(dir.resolve("apiserver.key"),
          pem("PRIVATE KEY", key.getEncoded()));
      Files.delete(store);
      return new SelfSignedCertificate(cert, privateKey);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot read the generated serving certificate", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while generating a serving certificate", e);
    }
  }

  private static String pem(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(der)
        + "\n-----END " + label + "-----\n";
  }
}
