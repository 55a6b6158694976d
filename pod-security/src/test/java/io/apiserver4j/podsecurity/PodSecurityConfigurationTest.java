/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.core.errors.FieldError;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube's {@code admission/api/load/load_test.go} (TestLoadFromData),
 * {@code admission/api/v1/defaults_test.go} and {@code validation/validation_test.go}.
 */
class PodSecurityConfigurationTest {
  static PodSecurityConfiguration baselineWith(String enforceVersion, List<String> users,
      List<String> namespaces, List<String> runtimeClasses) {
    return new PodSecurityConfiguration("baseline", enforceVersion, "privileged", "latest",
        "privileged", "latest", users, namespaces, runtimeClasses);
  }

  @Test
  void emptyIsTheDefault() {
    assertThat(PodSecurityConfiguration.load("")).isEqualTo(PodSecurityConfiguration.defaults());
    assertThat(PodSecurityConfiguration.defaults().defaultPolicy()).isEqualTo(Policy.PRIVILEGED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1alpha1", "v1beta1", "v1"})
  void jsonAndYamlOfEachVersion(String version) {
    assertThat(PodSecurityConfiguration.load("{\"apiVersion\":\"pod-security.admission.config"
        + ".k8s.io/" + version + "\", \"kind\":\"PodSecurityConfiguration\","
        + " \"defaults\":{\"enforce\":\"baseline\"}}"))
        .isEqualTo(baselineWith("latest", List.of(), List.of(), List.of()));
    assertThat(PodSecurityConfiguration.load("""
        apiVersion: pod-security.admission.config.k8s.io/%s
        kind: PodSecurityConfiguration
        defaults:
          enforce: baseline
          enforce-version: v1.7
        exemptions:
          usernames: ["alice","bob"]
          namespaces: ["kube-system"]
          runtimeClasses: ["special"]
        """.formatted(version)))
        .isEqualTo(baselineWith("v1.7", List.of("alice", "bob"), List.of("kube-system"),
            List.of("special")));
  }

  @Test
  void badDocumentsAreRefusedAsKubeDoes() {
    assertThatThrownBy(() -> PodSecurityConfiguration.load("{\"kind\":"
        + "\"PodSecurityConfiguration\"}")).hasMessageContaining("'apiVersion' is missing");
    assertThatThrownBy(() -> PodSecurityConfiguration.load("{\"apiVersion\":"
        + "\"pod-security.admission.config.k8s.io/v1alpha1\"}"))
        .hasMessageContaining("'Kind' is missing");
    assertThatThrownBy(() -> PodSecurityConfiguration.load("{\"apiVersion\":\"apps/v1alpha1\","
        + "\"kind\":\"PodSecurityConfiguration\"}")).hasMessageContaining("apps/v1alpha1");
    assertThatThrownBy(() -> PodSecurityConfiguration.load("{\"apiVersion\":"
        + "\"pod-security.admission.config.k8s.io/v99\",\"kind\":\"PodSecurityConfiguration\"}"))
        .hasMessageContaining("pod-security.admission.config.k8s.io/v99");
    assertThatThrownBy(() -> PodSecurityConfiguration.load("{\"apiVersion\":"
        + "\"pod-security.admission.config.k8s.io/v1alpha1\",\"kind\":\"SomeConfiguration\"}"))
        .hasMessageContaining("SomeConfiguration");
    assertThatThrownBy(() -> PodSecurityConfiguration.load("{\"apiVersion\":"
        + "\"pod-security.admission.config.k8s.io/v1alpha1\",\"kind\":"
        + "\"PodSecurityConfiguration\",\"deflaults\":{\"enforce\":\"baseline\"}}"))
        .hasMessageContaining("unknown field \"deflaults\"");
  }

  @Test
  void validation() {
    String tooLong = "testtesttesttesttesttesttesttesttesttesttesttesttesttesttesttest";
    PodSecurityConfiguration c = new PodSecurityConfiguration("privileged", "v1.22", "baseline",
        "v1.25", "restricted", "latest", List.of("", "testing", "testing"),
        List.of("", "_&$%#", "TEST", tooLong, "testing", "testing"),
        List.of("", "_&$%#", "TEST", "testing", "testing"));
    assertThat(c.validate()).extracting(FieldError::type, FieldError::field).containsExactly(
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.INVALID, "exemptions.namespaces[0]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.INVALID, "exemptions.namespaces[1]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.INVALID, "exemptions.namespaces[2]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.INVALID, "exemptions.namespaces[3]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.DUPLICATE, "exemptions.namespaces[5]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.INVALID,
            "exemptions.runtimeClasses[0]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.INVALID,
            "exemptions.runtimeClasses[1]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.INVALID,
            "exemptions.runtimeClasses[2]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.DUPLICATE,
            "exemptions.runtimeClasses[4]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.INVALID, "exemptions.usernames[0]"),
        org.assertj.core.groups.Tuple.tuple(FieldError.Type.DUPLICATE, "exemptions.usernames[2]"));
    PodSecurityConfiguration defaults = new PodSecurityConfiguration("baslein", "v.122", "lorum",
        "ipsum", "", "", List.of(), List.of(), List.of());
    assertThat(defaults.validate()).extracting(FieldError::field).containsExactly(
        "defaults.enforce", "defaults.enforce-version", "defaults.warn", "defaults.warn-version",
        "defaults.audit", "defaults.audit-version");
    assertThatThrownBy(() -> PodSecurityAdmission.create(defaults, NamespaceLookup.NONE,
        PodLister.NONE, Clock.systemUTC())).hasMessageStartingWith("PodSecurity invalid: [")
        .hasMessageContaining("defaults.enforce: Invalid value: \"baslein\": must be one of"
            + " privileged, baseline, restricted");
  }
}
