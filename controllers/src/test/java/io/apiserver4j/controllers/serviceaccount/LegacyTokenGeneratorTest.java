/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.serviceaccount;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's JWTTokenGenerator with ECDSA keys (pkg/serviceaccount/jwt.go): ES256, ES384 and ES512
 * by curve, the key id of the public key (derived here by the generator from the private key
 * alone) and a JWS signature in the raw r||s form RFC 7518 section 3.4 specifies.
 */
class LegacyTokenGeneratorTest {
  @ParameterizedTest
  @CsvSource({"secp256r1, ES256, SHA256", "secp384r1, ES384, SHA384",
      "secp521r1, ES512, SHA512"})
  void ecdsaKeysSignByCurveUnderTheirPublicKeyId(String curve, String alg, String hash)
      throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec(curve));
    KeyPair pair = g.generateKeyPair();
    LegacyTokenGenerator generator = new LegacyTokenGenerator(pair.getPrivate());

    String token = generator.generate("ns", "sa", "uid-1", "sa-token");
    String[] parts = token.split("\\.");
    String kid = Base64.getUrlEncoder().withoutPadding().encodeToString(
        MessageDigest.getInstance("SHA-256").digest(pair.getPublic().getEncoded()));
    assertThat(new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8))
        .isEqualTo("{\"alg\":\"" + alg + "\",\"kid\":\"" + kid + "\"}");
    Signature verify = Signature.getInstance(hash + "withECDSAinP1363Format");
    verify.initVerify(pair.getPublic());
    verify.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
    assertThat(verify.verify(Base64.getUrlDecoder().decode(parts[2]))).isTrue();
  }
}
