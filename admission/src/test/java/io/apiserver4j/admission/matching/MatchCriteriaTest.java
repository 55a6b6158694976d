/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Cases from kube's predicates (rules, namespace, object) and policy matching tests. */
class MatchCriteriaTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");
  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");
  private static final GroupVersionKind NAMESPACE = new GroupVersionKind("", "v1", "Namespace");

  private static MapValue obj(String json) {
    return (MapValue) Json.read(json);
  }

  private static AdmissionAttributes request(String group, String version, String resource,
      String subresource, String namespace, Operation op) {
    AdmissionAttributes.Builder b = AdmissionAttributes.builder().operation(op)
        .resource(new GroupVersionResource(group, version, resource)).subresource(subresource)
        .kind(new GroupVersionKind(group, version, "K")).name("name").namespace(namespace);
    if (op != Operation.DELETE) {
      b.object(obj("{\"metadata\":{\"name\":\"name\"}}"));
    }
    return b.build();
  }

  private static AdmissionAttributes create(String group, String resource, String subresource) {
    return request(group, "v", resource, subresource, "ns", Operation.CREATE);
  }

  private static boolean ruleMatches(String ruleJson, AdmissionAttributes a) {
    return Rule.fromValue(Json.read(ruleJson)).matches(a);
  }

  @Test
  void resourceFormsAsKubeRulesTest() {
    String star = "{\"operations\":[\"*\"],\"apiGroups\":[\"*\"],\"apiVersions\":[\"*\"],"
        + "\"resources\":%s}";
    String noSub = String.format(star, "[\"*\"]");
    assertThat(ruleMatches(noSub, create("g", "r", ""))).isTrue();
    assertThat(ruleMatches(noSub, create("2", "r2", ""))).isTrue();
    assertThat(ruleMatches(noSub, create("g", "r", "exec"))).isFalse();
    assertThat(ruleMatches(noSub, create("2", "r2", "proxy"))).isFalse();

    String rAndSubs = String.format(star, "[\"r/*\"]");
    assertThat(ruleMatches(rAndSubs, create("g", "r", ""))).isTrue();
    assertThat(ruleMatches(rAndSubs, create("g", "r", "exec"))).isTrue();
    assertThat(ruleMatches(rAndSubs, create("2", "r2", ""))).isFalse();
    assertThat(ruleMatches(rAndSubs, create("2", "r2", "proxy"))).isFalse();

    String orR2 = String.format(star, "[\"r/*\",\"r2\"]");
    assertThat(ruleMatches(orR2, create("2", "r2", ""))).isTrue();
    assertThat(ruleMatches(orR2, create("2", "r2", "proxy"))).isFalse();

    String proxyOrExec = String.format(star, "[\"*/proxy\",\"*/exec\"]");
    assertThat(ruleMatches(proxyOrExec, create("g", "r", "exec"))).isTrue();
    assertThat(ruleMatches(proxyOrExec, create("2", "r3", "proxy"))).isTrue();
    assertThat(ruleMatches(proxyOrExec, create("g", "r", ""))).isFalse();
    assertThat(ruleMatches(proxyOrExec, create("2", "r4", "scale"))).isFalse();

    String status = String.format(star, "[\"*/status\"]");
    assertThat(ruleMatches(status, create("apps", "deployments", "status"))).isTrue();
    assertThat(ruleMatches(status, create("apps", "deployments", ""))).isFalse();
  }

  @Test
  void operationsGroupsAndVersions() {
    String rule = "{\"operations\":[\"CREATE\",\"UPDATE\"],\"apiGroups\":[\"apps\",\"\"],"
        + "\"apiVersions\":[\"v1\"],\"resources\":[\"*\"]}";
    assertThat(ruleMatches(rule, request("apps", "v1", "deployments", "", "ns",
        Operation.CREATE))).isTrue();
    assertThat(ruleMatches(rule, request("", "v1", "pods", "", "ns", Operation.UPDATE)))
        .isTrue();
    assertThat(ruleMatches(rule, request("", "v1", "pods", "", "ns", Operation.DELETE)))
        .isFalse();
    assertThat(ruleMatches(rule, request("batch", "v1", "jobs", "", "ns", Operation.CREATE)))
        .isFalse();
    assertThat(ruleMatches(rule, request("apps", "v1beta1", "deployments", "", "ns",
        Operation.CREATE))).isFalse();
  }

  @Test
  void scopeAsKube() {
    String cluster = "{\"operations\":[\"*\"],\"apiGroups\":[\"*\"],\"apiVersions\":[\"*\"],"
        + "\"resources\":[\"*\"],\"scope\":\"Cluster\"}";
    String namespaced = cluster.replace("Cluster", "Namespaced");
    AdmissionAttributes pod = request("", "v1", "pods", "", "ns", Operation.CREATE);
    AdmissionAttributes node = request("", "v1", "nodes", "", "", Operation.CREATE);
    // a namespace request carries its own name as namespace in kube: still cluster-scoped
    AdmissionAttributes ns = AdmissionAttributes.builder().operation(Operation.CREATE)
        .resource(NAMESPACES).kind(NAMESPACE).name("ns").namespace("ns")
        .object(obj("{\"metadata\":{\"name\":\"ns\"}}")).build();
    assertThat(ruleMatches(cluster, node)).isTrue();
    assertThat(ruleMatches(cluster, ns)).isTrue();
    assertThat(ruleMatches(cluster, pod)).isFalse();
    assertThat(ruleMatches(namespaced, pod)).isTrue();
    assertThat(ruleMatches(namespaced, ns)).isFalse();
    assertThat(ruleMatches(namespaced, node)).isFalse();
  }

  private static final String PODS_RULE = "{\"operations\":[\"*\"],\"apiGroups\":[\"\"],"
      + "\"apiVersions\":[\"v1\"],\"resources\":[\"pods\"]}";

  private static AdmissionAttributes pod(String namespace, String labels, Operation op) {
    MapValue pod = obj("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
        + "\"labels\":" + labels + "}}");
    AdmissionAttributes.Builder b = AdmissionAttributes.builder().operation(op).resource(PODS)
        .kind(POD).name("p").namespace(namespace);
    if (op == Operation.DELETE) {
      b.oldObject(pod);
    } else {
      b.object(pod);
    }
    return b.build();
  }

  private static final NamespaceLookup LOOKUP = name -> name.equals("prod")
      ? Optional.of(obj("{\"metadata\":{\"name\":\"prod\",\"labels\":{\"env\":\"prod\"}}}"))
      : Optional.empty();

  private static MatchCriteria webhook(String extra) {
    return MatchCriteria.forWebhook(Json.read("{\"rules\":[" + PODS_RULE + "]" + extra + "}"));
  }

  @Test
  void namespaceSelectorUsesTheNamespaceLabels() {
    MatchCriteria c = webhook(",\"namespaceSelector\":{\"matchLabels\":{\"env\":\"prod\"}}");
    assertThat(c.match(pod("prod", "{}", Operation.CREATE), LOOKUP, EquivalentResources.NONE))
        .contains(new Match(PODS, "", POD));
    MatchCriteria notProd = webhook(",\"namespaceSelector\":{\"matchExpressions\":[{\"key\":"
        + "\"env\",\"operator\":\"NotIn\",\"values\":[\"prod\"]}]}");
    assertThat(notProd.match(pod("prod", "{}", Operation.CREATE), LOOKUP,
        EquivalentResources.NONE)).isEmpty();
  }

  @Test
  void aMissingNamespaceIsKubes404OnlyWhenTheRulesMatch() {
    MatchCriteria c = webhook(",\"namespaceSelector\":{\"matchLabels\":{\"env\":\"prod\"}}");
    assertThatThrownBy(() -> c.match(pod("gone", "{}", Operation.CREATE), LOOKUP,
        EquivalentResources.NONE))
        .isInstanceOf(NotFoundException.class)
        .hasMessage("namespaces \"gone\" not found");
    MatchCriteria otherRules = MatchCriteria.forWebhook(Json.read("{\"rules\":["
        + PODS_RULE.replace("pods", "services") + "],"
        + "\"namespaceSelector\":{\"matchLabels\":{\"env\":\"prod\"}}}"));
    assertThat(otherRules.match(pod("gone", "{}", Operation.CREATE), LOOKUP,
        EquivalentResources.NONE)).isEmpty();
  }

  @Test
  void clusterScopedObjectsAreNeverExcludedByNamespaceButNamespacesAre() {
    String any = "{\"rules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"*\"],"
        + "\"apiVersions\":[\"*\"],\"resources\":[\"*\"]}],"
        + "\"namespaceSelector\":{\"matchLabels\":{\"env\":\"prod\"}}}";
    MatchCriteria c = MatchCriteria.forWebhook(Json.read(any));
    AdmissionAttributes node = request("", "v1", "nodes", "", "", Operation.CREATE);
    assertThat(c.match(node, NamespaceLookup.NONE, EquivalentResources.NONE)).isPresent();
    // creating a namespace: its own labels decide (it is not stored yet)
    AdmissionAttributes prod = AdmissionAttributes.builder().operation(Operation.CREATE)
        .resource(NAMESPACES).kind(NAMESPACE).name("new")
        .object(obj("{\"metadata\":{\"name\":\"new\",\"labels\":{\"env\":\"prod\"}}}")).build();
    AdmissionAttributes dev = prod.newBuilder()
        .object(obj("{\"metadata\":{\"name\":\"new\",\"labels\":{\"env\":\"dev\"}}}")).build();
    assertThat(c.match(prod, NamespaceLookup.NONE, EquivalentResources.NONE)).isPresent();
    assertThat(c.match(dev, NamespaceLookup.NONE, EquivalentResources.NONE)).isEmpty();
    // deleting a namespace: the stored namespace's labels decide
    AdmissionAttributes delete = AdmissionAttributes.builder().operation(Operation.DELETE)
        .resource(NAMESPACES).kind(NAMESPACE).name("prod")
        .oldObject(obj("{\"metadata\":{\"name\":\"prod\"}}")).build();
    assertThat(c.match(delete, LOOKUP, EquivalentResources.NONE)).isPresent();
  }

  @Test
  void objectSelectorMatchesTheObjectOrTheOldObject() {
    MatchCriteria c = webhook(",\"objectSelector\":{\"matchLabels\":{\"app\":\"web\"}}");
    assertThat(c.match(pod("prod", "{\"app\":\"web\"}", Operation.CREATE), LOOKUP,
        EquivalentResources.NONE)).isPresent();
    assertThat(c.match(pod("prod", "{\"app\":\"db\"}", Operation.CREATE), LOOKUP,
        EquivalentResources.NONE)).isEmpty();
    // DELETE carries only the old object
    assertThat(c.match(pod("prod", "{\"app\":\"web\"}", Operation.DELETE), LOOKUP,
        EquivalentResources.NONE)).isPresent();
    AdmissionAttributes relabel = pod("prod", "{\"app\":\"db\"}", Operation.UPDATE).newBuilder()
        .oldObject(obj("{\"metadata\":{\"name\":\"p\",\"labels\":{\"app\":\"web\"}}}")).build();
    assertThat(c.match(relabel, LOOKUP, EquivalentResources.NONE)).isPresent();
  }

  @Test
  void malformedSelectorIsAnInternalErrorWhenTheRulesMatch() {
    MatchCriteria c = webhook(",\"objectSelector\":{\"matchExpressions\":[{\"key\":\"a\","
        + "\"operator\":\"Bogus\"}]}");
    assertThatThrownBy(() -> c.match(pod("prod", "{}", Operation.CREATE), LOOKUP,
        EquivalentResources.NONE))
        .isInstanceOf(StatusException.class)
        .hasMessage("Internal error occurred: \"Bogus\" is not a valid label selector operator");
  }

  private static final GroupVersionResource WIDGETS_V1 =
      new GroupVersionResource("example.com", "v1", "widgets");
  private static final GroupVersionResource WIDGETS_V2 =
      new GroupVersionResource("example.com", "v2", "widgets");
  private static final EquivalentResources WIDGET_VERSIONS = new EquivalentResources() {
    @Override
    public List<GroupVersionResource> equivalents(GroupVersionResource r, String sub) {
      return r.group().equals("example.com") ? List.of(WIDGETS_V2, WIDGETS_V1) : List.of(r);
    }

    @Override
    public Optional<GroupVersionKind> kindFor(GroupVersionResource r, String sub) {
      return Optional.of(new GroupVersionKind(r.group(), r.version(), "Widget"));
    }
  };

  @Test
  void equivalentMatchReportsTheMatchedVersionAndExactDoesNot() {
    String v1Rule = "{\"operations\":[\"CREATE\"],\"apiGroups\":[\"example.com\"],"
        + "\"apiVersions\":[\"v1\"],\"resources\":[\"widgets\"]}";
    AdmissionAttributes v2Create = AdmissionAttributes.builder().operation(Operation.CREATE)
        .resource(WIDGETS_V2).kind(new GroupVersionKind("example.com", "v2", "Widget"))
        .namespace("prod").name("w").object(obj("{\"metadata\":{\"name\":\"w\"}}")).build();
    MatchCriteria equivalent = MatchCriteria.forWebhook(Json.read("{\"rules\":[" + v1Rule
        + "],\"matchPolicy\":\"Equivalent\"}"));
    assertThat(equivalent.match(v2Create, LOOKUP, WIDGET_VERSIONS)).contains(
        new Match(WIDGETS_V1, "", new GroupVersionKind("example.com", "v1", "Widget")));
    MatchCriteria exact = MatchCriteria.forWebhook(Json.read("{\"rules\":[" + v1Rule
        + "],\"matchPolicy\":\"Exact\"}"));
    assertThat(exact.match(v2Create, LOOKUP, WIDGET_VERSIONS)).isEmpty();
  }

  @Test
  void policiesExcludeRulesAndMatchEverythingWithoutRules() {
    MatchCriteria all = MatchCriteria.forPolicy(Json.read("{}"));
    AdmissionAttributes p = pod("prod", "{}", Operation.CREATE);
    assertThat(all.match(p, LOOKUP, EquivalentResources.NONE)).contains(new Match(PODS, "", POD));
    MatchCriteria excluded = MatchCriteria.forPolicy(Json.read("{\"resourceRules\":["
        + PODS_RULE + "],\"excludeResourceRules\":[" + PODS_RULE + "]}"));
    assertThat(excluded.match(p, LOOKUP, EquivalentResources.NONE)).isEmpty();
    MatchCriteria named = MatchCriteria.forPolicy(Json.read("{\"resourceRules\":["
        + PODS_RULE.replace("{", "{\"resourceNames\":[\"other\"],") + "]}"));
    assertThat(named.match(p, LOOKUP, EquivalentResources.NONE)).isEmpty();
    MatchCriteria webhookWithoutRules = MatchCriteria.forWebhook(Json.read("{}"));
    assertThat(webhookWithoutRules.match(p, LOOKUP, EquivalentResources.NONE)).isEmpty();
  }

  @Test
  void configurationKindsAreExempt() {
    AdmissionAttributes vwc = AdmissionAttributes.builder().operation(Operation.CREATE)
        .resource(new GroupVersionResource("admissionregistration.k8s.io", "v1",
            "validatingwebhookconfigurations"))
        .kind(new GroupVersionKind("admissionregistration.k8s.io", "v1",
            "ValidatingWebhookConfiguration"))
        .name("x").object(obj("{}")).build();
    assertThat(AdmissionRequests.isAdmissionConfiguration(vwc)).isTrue();
    assertThat(AdmissionRequests.isAdmissionConfiguration(pod("prod", "{}", Operation.CREATE)))
        .isFalse();
  }

  @Test
  void matchConditionsFalseExcludesErrorsFailAndFalseWinsOverErrors() {
    List<String> vars = List.of("object", "oldObject", "request");
    AdmissionAttributes p = pod("prod", "{\"app\":\"web\"}", Operation.CREATE);
    Map<String, Value> bindings = Map.of("object", p.object().get(), "oldObject",
        Value.nullValue(), "request", AdmissionRequests.celRequest(p, new Match(PODS, "", POD)));
    MatchConditions holds = MatchConditions.compile(List.of(
        new MatchConditions.Condition("is-web", "object.metadata.labels.app == 'web'"),
        new MatchConditions.Condition("create", "request.operation == 'CREATE'")), vars);
    assertThat(holds.evaluate(bindings)).isEqualTo(new MatchConditions.Result.Matched());

    MatchConditions excludes = MatchConditions.compile(List.of(
        new MatchConditions.Condition("is-db", "object.metadata.labels.app == 'db'")), vars);
    assertThat(excludes.evaluate(bindings))
        .isEqualTo(new MatchConditions.Result.NotMatched("is-db"));

    MatchConditions.Condition failing =
        new MatchConditions.Condition("bad", "object.spec.missing == 'x'");
    MatchConditions errors = MatchConditions.compile(List.of(failing), vars);
    assertThat(errors.evaluate(bindings)).isInstanceOfSatisfying(
        MatchConditions.Result.Failed.class, f -> assertThat(f.message())
            .startsWith("expression 'object.spec.missing == 'x'' resulted in error: "));

    MatchConditions falseWins = MatchConditions.compile(List.of(failing,
        new MatchConditions.Condition("is-db", "object.metadata.labels.app == 'db'")), vars);
    assertThat(falseWins.evaluate(bindings))
        .isEqualTo(new MatchConditions.Result.NotMatched("is-db"));
  }
}
