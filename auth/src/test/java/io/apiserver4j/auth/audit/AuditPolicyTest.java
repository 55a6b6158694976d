/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.authz.AuthorizationAttributes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Policy matching and validation. The levels are those the comments of kube's documented
 * example policy promise (kubernetes.io/docs/tasks/debug/debug-cluster/audit/), the wildcard
 * cases those of kube's {@code policy/checker_test.go}, the messages kube's
 * {@code apis/audit/validation}.
 */
class AuditPolicyTest {
  static AuditPolicy docs() {
    return AuditPolicy.parse(resource("docs-policy.yaml"));
  }

  static String resource(String name) {
    try (InputStream in = AuditPolicyTest.class.getResourceAsStream("/audit/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static AuthorizationAttributes resource(String user, String verb, String group,
      String resource, String sub, String namespace, String name) {
    return new AuthorizationAttributes(new UserInfo(user, "", List.of("system:authenticated"),
        Map.of()), verb, true, group, "v1", resource, sub, namespace, name, "");
  }

  static AuthorizationAttributes path(UserInfo user, String path) {
    return new AuthorizationAttributes(user, "get", false, "", "", "", "", "", "", path);
  }

  @ParameterizedTest(name = "{0} {1} {2}/{3}/{4} in {5} {6} -> {7}")
  @CsvSource(delimiter = '|', value = {
      // pod changes at RequestResponse
      "alice | get | '' | pods | '' | default | p | REQUEST_RESPONSE",
      "alice | create | '' | pods | '' | default | '' | REQUEST_RESPONSE",
      // "pods/log", "pods/status" at Metadata
      "alice | get | '' | pods | log | default | p | METADATA",
      "alice | patch | '' | pods | status | default | p | METADATA",
      // other pod subresources: the core-group rule
      "alice | create | '' | pods | exec | default | p | REQUEST",
      // the controller-leader configmap is not logged, wherever it is
      "alice | update | '' | configmaps | '' | kube-system | controller-leader | NONE",
      "alice | get | '' | configmaps | '' | default | controller-leader | NONE",
      // kube-proxy's watches of endpoints and services are not logged, its lists are
      "system:kube-proxy | watch | '' | endpoints | '' | default | '' | NONE",
      "system:kube-proxy | watch | '' | services | '' | default | '' | NONE",
      "system:kube-proxy | list | '' | endpoints | '' | default | '' | REQUEST",
      "alice | watch | '' | services | '' | default | '' | REQUEST",
      // configmap changes in kube-system at Request, elsewhere at Metadata, as secrets
      "alice | create | '' | configmaps | '' | kube-system | '' | REQUEST",
      "alice | create | '' | configmaps | '' | default | '' | METADATA",
      "alice | get | '' | secrets | '' | default | s | METADATA",
      // the rest of core and extensions at Request
      "alice | list | '' | namespaces | '' | '' | '' | REQUEST",
      "alice | get | extensions | ingresses | '' | default | i | REQUEST",
      // the catch-all
      "alice | get | apps | deployments | '' | default | d | METADATA",
      "alice | get | apps | deployments | scale | default | d | METADATA",
  })
  void theDocumentedPolicyLogsEachResourceAtItsLevel(String user, String verb, String group,
      String resource, String sub, String namespace, String name, AuditLevel expected) {
    assertThat(docs().levelOf(resource(user, verb, group, resource, sub, namespace, name)))
        .isEqualTo(expected);
  }

  @Test
  void theDocumentedPolicySkipsAuthenticatedRequestsForApiPathsAndVersion() {
    UserInfo alice = UserInfo.of("alice", "system:authenticated");
    UserInfo anonymous = UserInfo.of("system:anonymous", "system:unauthenticated");
    AuditPolicy p = docs();
    assertThat(p.levelOf(path(alice, "/api"))).isEqualTo(AuditLevel.NONE);
    assertThat(p.levelOf(path(alice, "/apis/apps/v1"))).isEqualTo(AuditLevel.NONE);
    assertThat(p.levelOf(path(alice, "/version"))).isEqualTo(AuditLevel.NONE);
    assertThat(p.levelOf(path(alice, "/version/"))).isEqualTo(AuditLevel.METADATA);
    assertThat(p.levelOf(path(alice, "/healthz"))).isEqualTo(AuditLevel.METADATA);
    assertThat(p.levelOf(path(anonymous, "/version"))).isEqualTo(AuditLevel.METADATA);
  }

  @Test
  void policyOmitStagesAddToEveryRuleAndStayWhenNoRuleMatches() {
    AuditPolicy p = AuditPolicy.parse("""
        apiVersion: audit.k8s.io/v1
        kind: Policy
        omitStages: [RequestReceived]
        rules:
        - level: Metadata
          users: [alice]
          omitStages: [ResponseStarted]
        - level: Request
          users: [bob]
        """);
    assertThat(p.decide(resource("alice", "get", "", "pods", "", "ns", "p")).omitStages())
        .isEqualTo(Set.of(AuditStage.REQUEST_RECEIVED, AuditStage.RESPONSE_STARTED));
    assertThat(p.decide(resource("bob", "get", "", "pods", "", "ns", "p")).omitStages())
        .isEqualTo(Set.of(AuditStage.REQUEST_RECEIVED));
    AuditPolicy.Decision none = p.decide(resource("carol", "get", "", "pods", "", "ns", "p"));
    assertThat(none.level()).isEqualTo(AuditLevel.NONE);
    assertThat(none.omitStages()).isEqualTo(Set.of(AuditStage.REQUEST_RECEIVED));
  }

  @Test
  void aRulesOmitManagedFieldsOverridesThePolicysOnlyWhenSet() {
    AuditPolicy p = AuditPolicy.parse("""
        apiVersion: audit.k8s.io/v1
        kind: Policy
        omitManagedFields: true
        rules:
        - level: RequestResponse
          users: [keeper]
          omitManagedFields: false
        - level: RequestResponse
          users: [dropper]
          omitManagedFields: true
        - level: Request
        """);
    assertThat(p.decide(resource("keeper", "get", "", "pods", "", "ns", "p"))
        .omitManagedFields()).isFalse();
    assertThat(p.decide(resource("dropper", "get", "", "pods", "", "ns", "p"))
        .omitManagedFields()).isTrue();
    assertThat(p.decide(resource("anyone", "get", "", "pods", "", "ns", "p"))
        .omitManagedFields()).isTrue();
    AuditPolicy off = AuditPolicy.parse("""
        apiVersion: audit.k8s.io/v1
        kind: Policy
        rules:
        - level: Request
          users: [dropper]
          omitManagedFields: true
        - level: Request
        """);
    assertThat(off.decide(resource("dropper", "get", "", "pods", "", "ns", "p"))
        .omitManagedFields()).isTrue();
    assertThat(off.decide(resource("anyone", "get", "", "pods", "", "ns", "p"))
        .omitManagedFields()).isFalse();
  }

  @ParameterizedTest(name = "{0} matches {1}/{2}: {3}")
  @CsvSource(delimiter = '|', value = {
      "*/status | pods | status | true",
      "*/status | pods | log | false",
      "*/status | pods | '' | false",
      "pods/* | pods | log | true",
      // kube's "res/*" test compares the resource only: the main resource matches too
      "pods/* | pods | '' | true",
      "pods/* | services | log | false",
      "* | pods | log | true",
      "* | pods | '' | true",
      "pods/log | pods | log | true",
      "pods | pods | log | false",
  })
  void resourceWildcardsMatchAsKubes(String spec, String resource, String sub, boolean matches) {
    AuditPolicy p = AuditPolicy.parse("""
        apiVersion: audit.k8s.io/v1
        kind: Policy
        rules:
        - level: Metadata
          resources:
          - group: "*"
            resources: ["%s"]
        """.formatted(spec));
    assertThat(p.levelOf(resource("alice", "get", "apps", resource, sub, "ns", "x")))
        .isEqualTo(matches ? AuditLevel.METADATA : AuditLevel.NONE);
  }

  @Test
  void groupsNamespacesUsersAndGroupsNarrowARule() {
    AuditPolicy p = AuditPolicy.parse("""
        apiVersion: audit.k8s.io/v1
        kind: Policy
        rules:
        - level: Request
          userGroups: [devs]
          namespaces: [""]
          resources:
          - group: rbac.authorization.k8s.io
        - level: Metadata
          namespaces: ["team"]
        - level: RequestResponse
          nonResourceURLs: ["*"]
        """);
    UserInfo dev = UserInfo.of("dana", "devs");
    AuthorizationAttributes clusterRoles = new AuthorizationAttributes(dev, "list", true,
        "rbac.authorization.k8s.io", "v1", "clusterroles", "", "", "", "");
    assertThat(p.levelOf(clusterRoles)).isEqualTo(AuditLevel.REQUEST);
    assertThat(p.levelOf(new AuthorizationAttributes(dev, "list", true,
        "rbac.authorization.k8s.io", "v1", "roles", "", "team", "", "")))
        .isEqualTo(AuditLevel.METADATA);
    assertThat(p.levelOf(new AuthorizationAttributes(UserInfo.of("eve", "ops"), "list", true,
        "rbac.authorization.k8s.io", "v1", "clusterroles", "", "", "", "")))
        .isEqualTo(AuditLevel.NONE);
    assertThat(p.levelOf(path(dev, "/metrics"))).isEqualTo(AuditLevel.REQUEST_RESPONSE);
  }

  @Test
  void invalidPoliciesAreRefusedWithKubesMessages() {
    String head = "apiVersion: audit.k8s.io/v1\nkind: Policy\n";
    assertThatThrownBy(() -> AuditPolicy.parse(head + "rules:\n- level: Loud\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rules[0].level: Unsupported value: \"Loud\": supported values: \"None\","
            + " \"Metadata\", \"Request\", \"RequestResponse\"");
    assertThatThrownBy(() -> AuditPolicy.parse(head + "rules:\n- users: [a]\n"))
        .hasMessage("rules[0].level: Required value");
    assertThatThrownBy(() -> AuditPolicy.parse(head
        + "rules:\n- level: None\n  nonResourceURLs: [healthz, /a*b]\n"))
        .hasMessage("[rules[0].nonResourceURLs[0]: Invalid value: \"healthz\": non-resource URL"
            + " rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid"
            + " value: \"/a*b\": non-resource URL wildcards '*' must be the final character of"
            + " the rule]");
    assertThatThrownBy(() -> AuditPolicy.parse(head
        + "omitStages: [Started]\nrules:\n- level: None\n"))
        .hasMessage("omitStages[0]: Invalid value: \"Started\": allowed stages are"
            + " RequestReceived,ResponseStarted,ResponseComplete,Panic");
    assertThatThrownBy(() -> AuditPolicy.parse(head + "rules:\n- level: None\n  resources:\n"
        + "  - group: apps\n    resourceNames: [x]\n"))
        .hasMessageStartingWith("rules[0].resources.resourceNames: Invalid value:")
        .hasMessageEndingWith(": using resourceNames requires at least one resource");
    assertThatThrownBy(() -> AuditPolicy.parse(head + "rules:\n- level: None\n"
        + "  namespaces: [a]\n  nonResourceURLs: [/x]\n"))
        .hasMessageEndingWith(": rules cannot apply to both regular resources and non-resource"
            + " URLs");
    assertThatThrownBy(() -> AuditPolicy.parse(head + "rules: []\n"))
        .hasMessage("loaded illegal policy with 0 rules");
    assertThatThrownBy(() -> AuditPolicy.parse(
        "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: None\n"))
        .hasMessageStartingWith("failed decoding: no kind \"Policy\" is registered for version"
            + " \"audit.k8s.io/v1beta1\"");
  }

  @Test
  void aPolicyFileErrorNamesTheFile(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("policy.yaml"),
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n");
    assertThatThrownBy(() -> AuditPolicy.read(file))
        .hasMessage("loaded illegal policy with 0 rules: from file " + file);
    Path json = Files.writeString(dir.resolve("policy.json"),
        "{\"apiVersion\":\"audit.k8s.io/v1\",\"kind\":\"Policy\","
            + "\"rules\":[{\"level\":\"Request\"}]}");
    assertThat(AuditPolicy.read(json).levelOf(path(UserInfo.of("a"), "/healthz")))
        .isEqualTo(AuditLevel.REQUEST);
  }
}
