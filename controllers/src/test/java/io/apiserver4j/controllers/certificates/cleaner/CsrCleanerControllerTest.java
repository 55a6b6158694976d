/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.cleaner;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestCleanerWithApprovedExpiredCSR}
 * (pkg/controller/certificates/cleaner/cleaner_test.go), its cases and expected deletions, with
 * its two certificates (one whose notAfter is in 2017, one in 2117) as fixtures.
 */
class CsrCleanerControllerTest {
  /** kube's {@code expiredCert} test fixture. */
  private static final String EXPIRED = """
      -----BEGIN CERTIFICATE-----
      MIICIzCCAc2gAwIBAgIJAOApTlMFDOUnMA0GCSqGSIb3DQEBCwUAMG0xCzAJBgNV
      BAYTAkdCMQ8wDQYDVQQIDAZMb25kb24xDzANBgNVBAcMBkxvbmRvbjEYMBYGA1UE
      CgwPR2xvYmFsIFNlY3VyaXR5MRYwFAYDVQQLDA1JVCBEZXBhcnRtZW50MQowCAYD
      VQQDDAEqMB4XDTE3MTAwNDIwNDgzOFoXDTE3MTAwMzIwNDgzOFowbTELMAkGA1UE
      BhMCR0IxDzANBgNVBAgMBkxvbmRvbjEPMA0GA1UEBwwGTG9uZG9uMRgwFgYDVQQK
      DA9HbG9iYWwgU2VjdXJpdHkxFjAUBgNVBAsMDUlUIERlcGFydG1lbnQxCjAIBgNV
      BAMMASowXDANBgkqhkiG9w0BAQEFAANLADBIAkEA3Gt0KmuRXDxvqZUiX/xqAn1t
      nZZX98guZvPPyxnQtV3YpA274W0sX3jL+U71Ya+3kaUstXQa4YrWBUHiXoqJnwID
      AQABo1AwTjAdBgNVHQ4EFgQUtDsIpzHoUiLsO88f9fm+G0tYSPowHwYDVR0jBBgw
      FoAUtDsIpzHoUiLsO88f9fm+G0tYSPowDAYDVR0TBAUwAwEB/zANBgkqhkiG9w0B
      AQsFAANBADfrlKof5CUkxGlX9Rifxv/mWOk8ZuTLWfMYQH2nycBHnmOxy6sR+87W
      /Mb/uRz0TXVnGVcbu5E8Bz7e/Far1ZI=
      -----END CERTIFICATE-----
      """;
  /** kube's {@code unexpiredCert} test fixture. */
  private static final String UNEXPIRED = """
      -----BEGIN CERTIFICATE-----
      MIICJTCCAc+gAwIBAgIJAIRjMToP+pPEMA0GCSqGSIb3DQEBCwUAMG0xCzAJBgNV
      BAYTAkdCMQ8wDQYDVQQIDAZMb25kb24xDzANBgNVBAcMBkxvbmRvbjEYMBYGA1UE
      CgwPR2xvYmFsIFNlY3VyaXR5MRYwFAYDVQQLDA1JVCBEZXBhcnRtZW50MQowCAYD
      VQQDDAEqMCAXDTE3MTAwNDIwNDUyNFoYDzIxMTcwOTEwMjA0NTI0WjBtMQswCQYD
      VQQGEwJHQjEPMA0GA1UECAwGTG9uZG9uMQ8wDQYDVQQHDAZMb25kb24xGDAWBgNV
      BAoMD0dsb2JhbCBTZWN1cml0eTEWMBQGA1UECwwNSVQgRGVwYXJ0bWVudDEKMAgG
      A1UEAwwBKjBcMA0GCSqGSIb3DQEBAQUAA0sAMEgCQQC7j9BAV5HqIJGi6r4G4YeI
      ioHxH2loVu8IOKSK7xVs3v/EjR/eXbQzM+jZU7duyZqn6YjySZNLl0K0MfHCHBgX
      AgMBAAGjUDBOMB0GA1UdDgQWBBTwxV40NFSNW7lpQ3eUWX7Mxs03yzAfBgNVHSME
      GDAWgBTwxV40NFSNW7lpQ3eUWX7Mxs03yzAMBgNVHRMEBTADAQH/MA0GCSqGSIb3
      DQEBCwUAA0EALDi9OidANHflx8q+w3p0rJo9gpA6cJcFpEtP2Lv4kvOtB1f6L0jY
      MLd7MVm4cS/MNcx4L7l23UC3Hx4+nAxvIg==
      -----END CERTIFICATE-----
      """;
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  /** A condition "Type:minutesAgo". */
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no delete approved not passed deadline", 1, UNEXPIRED,
            List.of("Approved:50"), false),
        Arguments.of("no delete approved passed deadline not issued", 1, "",
            List.of("Approved:50"), false),
        Arguments.of("delete approved passed deadline", 1, UNEXPIRED, List.of("Approved:120"),
            true),
        Arguments.of("no delete denied not passed deadline", 1, "", List.of("Denied:50"), false),
        Arguments.of("delete denied passed deadline", 1, "", List.of("Denied:120"), true),
        Arguments.of("no delete failed not passed deadline", 1, "",
            List.of("Approved:120", "Failed:50"), false),
        Arguments.of("delete failed passed deadline", 1, "",
            List.of("Approved:120", "Failed:120"), true),
        Arguments.of("no delete pending not passed deadline", 5 * 60, "", List.of(), false),
        Arguments.of("delete pending passed deadline", 25 * 60, "", List.of(), true),
        Arguments.of("no delete approved not passed deadline unexpired", 1, UNEXPIRED,
            List.of("Approved:50"), false),
        Arguments.of("delete approved not passed deadline expired", 1, EXPIRED,
            List.of("Approved:50"), true),
        Arguments.of("delete approved passed deadline unparseable", 1, "garbage",
            List.of("Approved:120"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void cleaner(String name, long createdMinutesAgo, String certificate, List<String> conditions,
      boolean delete) {
    List<String> cs = new ArrayList<>();
    for (String c : conditions) {
      String[] p = c.split(":");
      cs.add("{\"type\":\"" + p[0] + "\",\"status\":\"True\",\"lastUpdateTime\":\""
          + Meta.formatTime(NOW.minus(Duration.ofMinutes(Long.parseLong(p[1])))) + "\"}");
    }
    MapValue csr = (MapValue) Json.read("{\"metadata\":{\"name\":\"fake-csr\","
        + "\"creationTimestamp\":\"" + Meta.formatTime(NOW.minus(Duration.ofMinutes(
        createdMinutesAgo))) + "\"},\"status\":{\"conditions\":[" + String.join(",", cs) + "]"
        + (certificate.isEmpty() ? "" : ",\"certificate\":\"" + Base64.getEncoder()
        .encodeToString(certificate.getBytes(StandardCharsets.US_ASCII)) + "\"") + "}}");
    assertThat(CsrCleanerController.shouldDelete(csr, NOW)).isEqualTo(delete);
  }
}
