/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * MutatingAdmissionPolicy {@code reinvocationPolicy} through the admission chain. The first two
 * cases are kube's integration cases (test/integration/apiserver/cel/
 * mutatingadmissionpolicy_test.go, "multiple policies requiring reinvocation" and "multiple
 * params causing reinvocation", on a ConfigMap instead of Endpoints); the others follow kube's
 * dispatcher
 * (k8s.io/apiserver pkg/admission/plugin/policy/mutating/dispatcher.go).
 */
class MutatingPolicyReinvocationTest {
  private static final String COUNT = """
      Object{metadata: Object.metadata{annotations: {
        ?"foo": optional.of(string(int(object.metadata.annotations["foo"]) + 1)),
        "%s": "true"}}}""";

  private static MapValue policy(String name, String reinvocation, String paramKind,
      String... expressions) {
    StringBuilder mutations = new StringBuilder();
    for (String e : expressions) {
      mutations.append("\n  - patchType: ApplyConfiguration\n    applyConfiguration:\n"
          + "      expression: '").append(e.replace("'", "''")).append("'");
    }
    return (MapValue) Yaml.read("metadata: {name: " + name + "}\nspec:\n"
        + "  reinvocationPolicy: " + reinvocation + "\n" + paramKind
        + "  matchConstraints:\n    resourceRules:\n"
        + "    - {apiGroups: [''], apiVersions: [v1], operations: ['*'], resources: [configmaps]}\n"
        + "  mutations:" + mutations + "\n");
  }

  private static MapValue binding(String policy, String paramRef) {
    return (MapValue) Yaml.read("metadata: {name: " + policy + "-binding}\nspec:\n"
        + "  policyName: " + policy + "\n" + paramRef);
  }

  private static MapValue object(String annotations) {
    return (MapValue) Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: e,"
        + " namespace: default, annotations: " + annotations + "}}");
  }

  private static MutatingPlugin plugin(String name, UnaryOperator<MapValue> admit) {
    return new MutatingPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public MapValue admit(AdmissionAttributes attributes, MapValue object) {
        return admit.apply(object);
      }
    };
  }

  /** The policies as the server runs them: one plugin of the chain. */
  private static MutatingPlugin policies(List<MapValue> policies, List<MapValue> bindings,
      List<MapValue> params) {
    MutatingAdmissionPolicies compiled = MutatingAdmissionPolicies.of(policies, bindings);
    TestContext context = new TestContext(params);
    return new MutatingPlugin() {
      @Override
      public String name() {
        return "MutatingAdmissionPolicy";
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public MapValue admit(AdmissionAttributes attributes, MapValue object) {
        return compiled.admit(attributes.withObject(object), context);
      }
    };
  }

  private static Map<String, String> admit(AdmissionChain chain, MapValue object) {
    return Meta.annotations(chain.admit(ValidatingAdmissionPoliciesTest.create(object)));
  }

  @Test
  void ifNeededPoliciesRunAgainAfterLaterChangesAndNeverPoliciesDoNot() {
    MutatingPlugin p = policies(List.of(
        policy("policy-1", "IfNeeded", "", COUNT.formatted("firstApplied")),
        policy("policy-2", "IfNeeded", "", COUNT.formatted("secondApplied")),
        policy("policy-3", "Never", "", COUNT.formatted("thirdApplied"))),
        List.of(binding("policy-1", ""), binding("policy-2", ""), binding("policy-3", "")),
        List.of());
    // 0->1->2->3 in the first round; policy-1 and policy-2 again: 4, 5
    assertThat(admit(AdmissionChain.builder().add(p).build(), object("{foo: '0'}")))
        .containsExactlyInAnyOrderEntriesOf(Map.of("foo", "5", "firstApplied", "true",
            "secondApplied", "true", "thirdApplied", "true"));
  }

  @Test
  void eachParameterOfABindingIsReinvokedOnItsOwn() {
    String configMapKind = "  paramKind: {apiVersion: v1, kind: ConfigMap}\n";
    String data = "Object{metadata: Object.metadata{annotations: params.data}}";
    String count = """
        Object{metadata: Object.metadata{annotations: {
          ?"foo": optional.of(string(int(object.metadata.annotations["foo"]) + 1))}}}""";
    MutatingPlugin p = policies(List.of(
        policy("multi-param-reinvocation", "IfNeeded", configMapKind, data, count),
        policy("policy-with-param-no-reinvoke", "Never", configMapKind, data, count)),
        List.of(binding("multi-param-reinvocation", "  paramRef: {selector: {matchLabels:"
                + " {multi-param-reinvocation: 'true'}}, parameterNotFoundAction: Allow}\n"),
            binding("policy-with-param-no-reinvoke", "  paramRef: {name:"
                + " multi-param-reinvocation-param-3, parameterNotFoundAction: Allow}\n")),
        List.of(configMap("multi-param-reinvocation-param-1", true, "firstApplied"),
            configMap("multi-param-reinvocation-param-2", true, "secondApplied"),
            configMap("multi-param-reinvocation-param-3", false, "thirdApplied")));
    assertThat(admit(AdmissionChain.builder().add(p).build(), object("{foo: '0'}")))
        .containsExactlyInAnyOrderEntriesOf(Map.of("foo", "5", "firstApplied", "true",
            "secondApplied", "true", "thirdApplied", "true"));
  }

  private static MapValue configMap(String name, boolean labelled, String key) {
    return (MapValue) Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: " + name
        + ", namespace: default" + (labelled ? ", labels: {multi-param-reinvocation: 'true'}"
        : "") + "}, data: {" + key + ": 'true'}}");
  }

  @Test
  void anIfNeededPolicySeesWhatALaterPluginChanged() {
    String record = "Object{metadata: Object.metadata{annotations: {\"saw\":"
        + " object.metadata.?labels[\"late\"].orValue(\"nothing\")}}}";
    List<String> order = new ArrayList<>();
    MutatingPlugin late = plugin("late", o -> {
      order.add(Meta.annotations(o).getOrDefault("saw", "-"));
      return Meta.withMeta(o, "labels", MapValue.ofEntries("late", Value.of("done")));
    });
    AdmissionChain ifNeeded = AdmissionChain.builder().add(policies(
        List.of(policy("recorder", "IfNeeded", "", record)),
        List.of(binding("recorder", "")), List.of())).add(late).build();
    assertThat(admit(ifNeeded, object("{}"))).containsEntry("saw", "done");
    // the late plugin ran in both rounds (in-JVM plugins always do), after the policy each time
    assertThat(order).containsExactly("nothing", "done");

    AdmissionChain never = AdmissionChain.builder().add(policies(
        List.of(policy("recorder", "Never", "", record)),
        List.of(binding("recorder", "")), List.of())).add(late).build();
    assertThat(admit(never, object("{}"))).containsEntry("saw", "nothing");
  }

  private static MutatingPlugin rounds(List<String> rounds) {
    return new MutatingPlugin() {
      @Override
      public String name() {
        return "rounds";
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public MapValue admit(AdmissionAttributes attributes, MapValue object) {
        rounds.add(attributes.context().isReinvoke() ? "second" : "first");
        return object;
      }
    };
  }

  @Test
  void anyAppliedMutationAsksForTheSecondRound() {
    // kube's dispatcher marks the object dirty on every applied mutation, changed or not, and
    // then asks for the second round and for the IfNeeded policies invoked since the last
    // change to run again: here the only policy, which counts once more
    List<String> rounds = new ArrayList<>();
    AdmissionChain chain = AdmissionChain.builder().add(rounds(rounds)).add(policies(
        List.of(policy("counter", "IfNeeded", "", COUNT.formatted("applied"))),
        List.of(binding("counter", "")), List.of())).build();
    assertThat(admit(chain, object("{foo: '0'}"))).containsEntry("foo", "2");
    assertThat(rounds).containsExactly("first", "second");

    AdmissionChain never = AdmissionChain.builder().add(policies(
        List.of(policy("counter", "Never", "", COUNT.formatted("applied"))),
        List.of(binding("counter", "")), List.of())).build();
    assertThat(admit(never, object("{foo: '0'}"))).containsEntry("foo", "1");

    // a mutation that changes nothing still asks for the second round of the chain
    rounds.clear();
    AdmissionChain unchanged = AdmissionChain.builder().add(rounds(rounds)).add(policies(
        List.of(policy("same", "Never", "",
            "Object{metadata: Object.metadata{annotations: {\"foo\": \"0\"}}}")),
        List.of(binding("same", "")), List.of())).build();
    assertThat(admit(unchanged, object("{foo: '0'}"))).containsExactly(Map.entry("foo", "0"));
    assertThat(rounds).containsExactly("first", "second");
  }

  @Test
  void aFalseMatchConditionIsNoInvocation() {
    MapValue p = policy("skipped", "IfNeeded", "", COUNT.formatted("applied"));
    MapValue spec = (MapValue) p.getOrNull("spec");
    p = p.with("spec", spec.with("matchConditions", Yaml.read(
        "[{name: never, expression: 'false'}]")));
    List<String> rounds = new ArrayList<>();
    AdmissionChain chain = AdmissionChain.builder().add(rounds(rounds))
        .add(policies(List.of(p), List.of(binding("skipped", "")), List.of())).build();
    assertThat(admit(chain, object("{foo: '0'}"))).containsEntry("foo", "0");
    assertThat(rounds).containsExactly("first");
  }
}
