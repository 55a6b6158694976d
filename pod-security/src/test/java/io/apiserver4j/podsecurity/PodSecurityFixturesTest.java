/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's Pod Security Standards fixtures ({@code ../shared/pod-security/testdata}, from
 * k8s.io/pod-security-admission v0.36.2 {@code test/testdata}): every {@code pass} pod is
 * admitted and every {@code fail} pod refused in a namespace enforcing its level and version
 * (and the newest version's also at {@code latest}), with kube's message carrying the substring
 * upstream's {@code test/run.go} expects of the check ({@code fixtures_*.go}
 * {@code expectErrorSubstring}, else the check id) and no unknown reason.
 */
class PodSecurityFixturesTest {
  // upstream's expectErrorSubstring per check, by the lower-cased check id the files are named by
  private static final Map<String, String> EXPECTED_SUBSTRING = Map.ofEntries(
      Map.entry("allowprivilegeescalation", "allowPrivilegeEscalation"),
      Map.entry("apparmorprofile", "forbidden AppArmor profile"),
      Map.entry("capabilities_baseline", "capabilities"),
      Map.entry("capabilities_restricted", "unrestricted capabilities"),
      Map.entry("hostnamespaces", "host namespaces"),
      Map.entry("hostpathvolumes", "hostPath"),
      Map.entry("hostports", "hostPort"),
      Map.entry("hostprobesandhostlifecycle", "probe or lifecycle host"),
      Map.entry("privileged", "privileged"),
      Map.entry("procmount", "procMount"),
      Map.entry("procmount_restricted", "procMount"),
      Map.entry("restrictedvolumes", "restricted volume types"),
      Map.entry("runasnonroot", "runAsNonRoot"),
      Map.entry("runasuser", "runAsUser"),
      Map.entry("selinuxoptions", "seLinuxOptions"),
      Map.entry("seccompprofile_baseline", "seccompProfile"),
      Map.entry("seccompprofile_restricted", "seccompProfile"),
      Map.entry("sysctls", "forbidden sysctl"),
      Map.entry("windowshostprocess", "hostProcess"));

  private static final Evaluator EVALUATOR = Evaluator.create();

  static Path testdata() {
    return Path.of(System.getProperty("apiserver4j.shared", "../shared"))
        .resolve("pod-security/testdata");
  }

  record Fixture(Level level, String version, boolean pass, Path file) {
    @Override
    public String toString() {
      return level.label() + ":" + version + " " + (pass ? "pass/" : "fail/") + file.getFileName();
    }
  }

  static List<Fixture> fixtures() {
    List<Fixture> out = new ArrayList<>();
    int newest = 0;
    for (Level level : List.of(Level.BASELINE, Level.RESTRICTED)) {
      try (Stream<Path> versions = Files.list(testdata().resolve(level.label()))) {
        for (Path v : versions.sorted().toList()) {
          newest = Math.max(newest, Integer.parseInt(v.getFileName().toString().substring(3)));
          for (String kind : List.of("pass", "fail")) {
            try (Stream<Path> files = Files.list(v.resolve(kind))) {
              files.filter(f -> f.toString().endsWith(".yaml")).sorted().forEach(f -> out.add(new Fixture(level, v.getFileName().toString(),
                  kind.equals("pass"), f)));
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    String newestDir = "v1." + newest;
    List<Fixture> latest = out.stream().filter(f -> f.version.equals(newestDir))
        .map(f -> new Fixture(f.level, "latest", f.pass, f.file)).toList();
    out.addAll(latest);
    return out;
  }

  static Stream<Arguments> cases() {
    return fixtures().stream().map(Arguments::of);
  }

  @Test
  void allUpstreamFixturesAreThere() {
    // testdata holds 4,242 files: its README and 4,241 pods
    assertThat(fixtures().stream().filter(f -> !f.version.equals("latest"))).hasSize(4241);
  }

  /**
   * kube-apiserver defaults a volume without a source to an emptyDir ({@code SetDefaults_Volume})
   * before admission, and upstream's fixtures are created through it: {@code restrictedvolumes0}
   * passes because of that.
   */
  static MapValue defaultVolumes(MapValue pod) {
    MapValue spec = (MapValue) pod.getOrNull("spec");
    if (!(spec.getOrNull("volumes") instanceof ListValue volumes)) {
      return pod;
    }
    ListValue.Builder out = ListValue.builder();
    for (Value v : volumes.items()) {
      MapValue volume = (MapValue) v;
      out.add(volume.size() == 1 && volume.containsKey("name")
          ? volume.with("emptyDir", MapValue.empty()) : volume);
    }
    return pod.with("spec", spec.with("volumes", out.build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void judgedAsUpstreamSays(Fixture fixture) throws IOException {
    MapValue pod = defaultVolumes((MapValue) Yaml.read(Files.readString(fixture.file)));
    MapValue namespace = (MapValue) Yaml.read("metadata: {name: ns, labels: {"
        + Policy.ENFORCE_LEVEL_LABEL + ": " + fixture.level.label() + ", "
        + Policy.ENFORCE_VERSION_LABEL + ": " + fixture.version + "}}");
    NamespaceLookup lookup = name -> name.equals("ns") ? Optional.of(namespace) : Optional.empty();
    PodSecurityAdmission plugin = PodSecurityAdmission.create(PodSecurityConfiguration.defaults(),
        EVALUATOR, lookup, PodLister.NONE, Clock.systemUTC());
    AdmissionAttributes attributes = AdmissionAttributes.builder().operation(Operation.CREATE)
        .resource(new GroupVersionResource("", "v1", "pods"))
        .kind(new GroupVersionKind("", "v1", "Pod")).namespace("ns")
        .name(Nested.str(pod, "metadata", "name")).object(pod).build();
    PodSecurityResponse response = plugin.evaluate(attributes);
    String levelVersion = fixture.level.label() + ":" + fixture.version;
    assertThat(response.auditAnnotations()).containsEntry("enforce-policy", levelVersion);
    if (fixture.pass) {
      assertThat(response.denial()).isEmpty();
      return;
    }
    assertThat(response.denial()).isPresent();
    String message = response.denial().get().status().message();
    String file = fixture.file.getFileName().toString();
    String check = file.substring(0, file.length() - ".yaml".length()).replaceAll("[0-9]+$", "");
    assertThat(message)
        .startsWith("pods \"" + attributes.name() + "\" is forbidden: violates PodSecurity \""
            + levelVersion + "\": ")
        .contains(EXPECTED_SUBSTRING.get(check))
        .doesNotContain(AggregateCheckResult.UNKNOWN_FORBIDDEN_REASON);
    assertThat(response.denial().get().code()).isEqualTo(403);
  }
}
