/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each release's data against that release's upstream data in ../shared: the served resources
 * are its README's table, and every round-trip fixture of its GA group versions survives
 * JSON → protobuf → JSON with its own codec.
 */
class KubeVersionsTest {

  static Path releaseDirectory(KubeVersion v) {
    Path shared = Path.of(System.getProperty("apiserver4j.shared", "../../shared"));
    return v == KubeVersion.latest() ? shared.resolve("api")
        : shared.resolve("api-versions").resolve(v.toString());
  }

  /** One table row as text: "gv resource kind scope verbs names [categories] subresources". */
  static List<String> table(KubeVersion v) throws IOException {
    String readme = Files.readString(releaseDirectory(v).resolve("README.md"),
        StandardCharsets.UTF_8);
    int start = readme.indexOf("## Resources a " + v + " kube-apiserver serves by default");
    int table = readme.indexOf("| group/version | resource |", start);
    List<String> rows = new ArrayList<>();
    for (String line : readme.substring(table).split("\n")) {
      if (!line.startsWith("|")) {
        break;
      }
      String[] c = line.split("\\|", -1);
      if (c[1].trim().equals("group/version") || c[1].trim().startsWith("---")) {
        continue;
      }
      rows.add(String.join(" ", c[1].trim(), c[2].trim(), c[3].trim(), c[4].trim(),
          String.join(",", new TreeSet<>(List.of(c[5].trim().split(",")))), c[6].trim(),
          c[7].trim()));
    }
    return rows;
  }

  /** The same row built from our data. */
  static String row(KubeResource r) {
    String gv = r.kind().group().isEmpty() ? r.kind().version()
        : r.kind().group() + "/" + r.kind().version();
    String names = r.shortNames().isEmpty() ? "—" : String.join(",", r.shortNames());
    if (!r.categories().isEmpty()) {
      names += " [" + String.join(",", r.categories()) + "]";
    }
    List<String> subs = new ArrayList<>();
    for (KubeSubresource s : r.subresources()) {
      String sub = s.name() + " (" + String.join(",", tableVerbOrder(s.verbs())) + ")";
      if (!s.kind().equals(r.kind())) {
        String sgv = s.kind().group().isEmpty() ? s.kind().version()
            : s.kind().group() + "/" + s.kind().version();
        sub += " →" + sgv + " " + s.kind().kind();
      }
      subs.add(sub);
    }
    return String.join(" ", gv, r.plural(), r.kind().kind(),
        r.namespaced() ? "Namespaced" : "Cluster", String.join(",", new TreeSet<>(r.verbs())),
        names, subs.isEmpty() ? "—" : String.join("; ", subs));
  }

  // the README lists subresource verbs in kube's action order: get, create, update, patch, delete
  private static List<String> tableVerbOrder(List<String> verbs) {
    List<String> out = new ArrayList<>();
    for (String v : List.of("get", "list", "watch", "create", "update", "patch", "delete",
        "deletecollection")) {
      if (verbs.contains(v)) {
        out.add(v);
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(KubeVersion.class)
  void servedResourcesAreTheReleasesTable(KubeVersion v) throws IOException {
    List<String> ours = KubeApi.resources(v).stream().map(KubeVersionsTest::row).toList();
    assertThat(new TreeSet<>(ours)).containsExactlyElementsOf(new TreeSet<>(table(v)));
    assertThat(ours).hasSize(switch (v) {
      case V1_33 -> 61;
      case V1_34, V1_35 -> 66;
      case V1_36 -> 68;
    });
  }

  @Test
  void resourcesAddedAfterAReleaseAreNotInIt() {
    assertThat(plurals(KubeVersion.V1_33)).doesNotContain("resource.k8s.io/v1/resourceclaims",
        "storage.k8s.io/v1/volumeattributesclasses",
        "admissionregistration.k8s.io/v1/mutatingadmissionpolicies");
    assertThat(plurals(KubeVersion.V1_34)).contains("resource.k8s.io/v1/resourceclaims")
        .doesNotContain("admissionregistration.k8s.io/v1/mutatingadmissionpolicies");
    assertThat(plurals(KubeVersion.V1_36))
        .contains("admissionregistration.k8s.io/v1/mutatingadmissionpolicies");
  }

  @Test
  void eachReleaseHasItsOwnSchemaAndDefinitions() {
    // ResourceClaim's v1 types are in 1.34's schema, not in 1.33's
    assertThat(KubeApi.openApiDefinitions(KubeVersion.V1_33).asMap())
        .doesNotContainKey("io.k8s.api.resource.v1.ResourceClaim");
    assertThat(KubeApi.openApiDefinitions(KubeVersion.V1_34).asMap())
        .containsKey("io.k8s.api.resource.v1.ResourceClaim");
    assertThat(KubeApi.schema(KubeVersion.V1_36)).isSameAs(KubeApi.schema());
    assertThat(KubeApi.schema(KubeVersion.V1_33)).isSameAs(KubeApi.schema(KubeVersion.V1_33));
    assertThat(ProtobufCodec.builtIn(KubeVersion.V1_36)).isSameAs(ProtobufCodec.builtIn());
  }

  private static Set<String> plurals(KubeVersion v) {
    Set<String> out = new TreeSet<>();
    KubeApi.resources(v).forEach(r -> out.add(r.kind().group() + "/" + r.kind().version()
        + "/" + r.plural()));
    return out;
  }

  /** Every GA fixture of every release, with its release. */
  static Stream<Arguments> fixtures() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (KubeVersion v : KubeVersion.all()) {
      Set<String> protoGroupVersions = protoGroupVersions(v);
      try (Stream<Path> files = Files.list(releaseDirectory(v).resolve("roundtrip"))) {
        files.sorted().forEach(p -> {
          String name = p.getFileName().toString();
          String gv = name.substring(0, name.lastIndexOf('.', name.length() - 6));
          if (protoGroupVersions.contains(gv)) {
            out.add(Arguments.of(v, p));
          }
        });
      }
    }
    return out.stream();
  }

  // "apps.v1", "core.v1", "resource.k8s.io.v1": the group versions of the release's proto files
  private static Set<String> protoGroupVersions(KubeVersion v) throws IOException {
    Set<String> out = new TreeSet<>();
    Path api = releaseDirectory(v).resolve("proto/k8s.io/api");
    try (Stream<Path> dirs = Files.walk(api, 2)) {
      dirs.filter(p -> api.relativize(p).getNameCount() == 2).forEach(p -> {
        String group = api.relativize(p).getName(0).toString();
        String version = api.relativize(p).getName(1).toString();
        out.add(groupPrefix(group) + "." + version);
      });
    }
    return out;
  }

  // the fixture files' group names: the proto directories are Go package names
  private static String groupPrefix(String dir) {
    return switch (dir) {
      case "core", "apps", "autoscaling", "batch", "policy" -> dir;
      case "rbac" -> "rbac.authorization.k8s.io";
      case "flowcontrol" -> "flowcontrol.apiserver.k8s.io";
      default -> dir + ".k8s.io";
    };
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("fixtures")
  void fixtureSurvivesJsonAndProtobuf(KubeVersion v, Path fixture) throws IOException {
    byte[] bytes = Files.readAllBytes(fixture);
    MapValue expected = (MapValue) Json.read(bytes);
    assertThat(Json.read(Json.writeBytes(expected))).isEqualTo(expected);
    MapValue object = expected;
    if (!expected.containsKey("apiVersion")) {
      object = expected.with("apiVersion", Value.of("v1")).with("kind", Value.of("WatchEvent"));
    }
    ProtobufCodec codec = ProtobufCodec.builtIn(v);
    MapValue decoded = codec.decode(codec.encode(object));
    if (!expected.containsKey("apiVersion")) {
      decoded = decoded.without("apiVersion").without("kind");
    }
    List<String> differences = new ArrayList<>();
    ProtobufRoundTripTest.diff("", expected, decoded, differences);
    assertThat(differences).as(v + " " + fixture.getFileName()).isEmpty();
  }

  @Test
  void parsesKubesEmulatedVersionFlag() {
    assertThat(KubeVersion.parse("1.33")).isEqualTo(KubeVersion.V1_33);
    assertThat(KubeVersion.parse("v1.35")).isEqualTo(KubeVersion.V1_35);
    assertThat(KubeVersion.parse("1.36")).isEqualTo(KubeVersion.latest());
    assertThat(KubeVersion.V1_34).hasToString("1.34");
    assertThat(KubeVersion.V1_34.minCompatibility()).isEqualTo("1.33");
    // component-base/compatibility's Validate and apimachinery's version parser
    assertThatThrownBy(() -> KubeVersion.parse("1.32"))
        .hasMessage("emulation version 1.32 is not between [1.33, 1.36.0]");
    assertThatThrownBy(() -> KubeVersion.parse("1.37"))
        .hasMessage("emulation version 1.37 is not between [1.33, 1.36.0]");
    assertThatThrownBy(() -> KubeVersion.parse("one"))
        .hasMessage("could not parse \"one\" as version");
    assertThatThrownBy(() -> KubeVersion.parse("1"))
        .hasMessage("illegal version string \"1\"");
  }
}
