/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every upstream round-trip fixture of a GA group version ({@code ../shared/api/roundtrip},
 * written by Go's JSON encoder from fully populated objects) survives JSON → protobuf → JSON.
 */
class ProtobufRoundTripTest {
  /** The group versions whose generated.proto files ../shared/api/proto has. */
  private static final Set<String> GA = Set.of("admission.k8s.io.v1",
      "admissionregistration.k8s.io.v1", "apidiscovery.k8s.io.v2", "apps.v1",
      "authentication.k8s.io.v1", "authorization.k8s.io.v1", "autoscaling.v1", "autoscaling.v2",
      "batch.v1", "certificates.k8s.io.v1", "coordination.k8s.io.v1", "core.v1",
      "discovery.k8s.io.v1", "events.k8s.io.v1", "flowcontrol.apiserver.k8s.io.v1",
      "networking.k8s.io.v1", "node.k8s.io.v1", "policy.v1", "rbac.authorization.k8s.io.v1",
      "resource.k8s.io.v1", "scheduling.k8s.io.v1", "storage.k8s.io.v1");

  static Path roundtrip() {
    return Path.of(System.getProperty("apiserver4j.shared", "../../shared"), "api/roundtrip");
  }

  static List<Path> fixtures() throws IOException {
    try (Stream<Path> files = Files.list(roundtrip())) {
      return files.filter(p -> {
        String name = p.getFileName().toString();
        String gv = name.substring(0, name.lastIndexOf('.', name.length() - 6));
        return GA.contains(gv);
      }).sorted().toList();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void jsonToProtobufToJson(Path fixture) throws IOException {
    MapValue expected = (MapValue) Json.read(Files.readAllBytes(fixture));
    ProtobufCodec codec = ProtobufCodec.builtIn();
    MapValue object = expected;
    if (!expected.containsKey("apiVersion")) {
      // the WatchEvent envelope is the only fixture without a type of its own
      object = expected.with("apiVersion", Value.of("v1")).with("kind", Value.of("WatchEvent"));
    }
    MapValue decoded = codec.decode(codec.encode(object));
    if (!expected.containsKey("apiVersion")) {
      decoded = decoded.without("apiVersion").without("kind");
    }
    Value actual = decoded;
    Value wanted = expected;
    List<String> differences = new ArrayList<>();
    diff("", wanted, actual, differences);
    assertThat(differences).as(fixture.getFileName().toString()).isEmpty();
    assertThat(actual).isEqualTo(wanted);
  }

  /** The paths where two trees differ, for a readable failure. */
  static void diff(String path, Value want, Value got, List<String> out) {
    if (want instanceof MapValue w && got instanceof MapValue g) {
      for (int i = 0; i < w.size(); i++) {
        Value other = g.getOrNull(w.keyAt(i));
        if (other == null) {
          out.add(path + "." + w.keyAt(i) + " missing (want " + Json.write(w.valueAt(i)) + ")");
        } else {
          diff(path + "." + w.keyAt(i), w.valueAt(i), other, out);
        }
      }
      for (int i = 0; i < g.size(); i++) {
        if (!w.containsKey(g.keyAt(i))) {
          out.add(path + "." + g.keyAt(i) + " unexpected: " + Json.write(g.valueAt(i)));
        }
      }
    } else if (want instanceof ListValue w && got instanceof ListValue g
        && w.size() == g.size()) {
      for (int i = 0; i < w.size(); i++) {
        diff(path + "[" + i + "]", w.get(i), g.get(i), out);
      }
    } else if (!want.equals(got)) {
      out.add(path + ": want " + Json.write(want) + ", got " + Json.write(got));
    }
  }
}
