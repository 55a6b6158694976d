/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code authorizer} in webhook match conditions, declared as kube declares it for them
 * (k8s.io/apiserver pkg/admission/plugin/webhook/accessors.go: {@code HasAuthorizer: true}).
 */
class MatchConditionsAuthorizerTest {
  private static final List<String> WEBHOOK_VARIABLES =
      List.of("object", "oldObject", "request", "authorizer");
  private final List<CelAuthorizer.Check> checks = new CopyOnWriteArrayList<>();

  private CelAuthorizer.ForRequest forRequest(boolean allow) {
    CelAuthorizer authorizer = check -> {
      checks.add(check);
      return new CelAuthorizer.Decision(allow, "", "");
    };
    return new CelAuthorizer.ForRequest(authorizer, "apps", "deployments", "scale", "prod",
        "web");
  }

  private static MatchConditions conditions(String expression) {
    return MatchConditions.compile(List.of(new MatchConditions.Condition("authz", expression)),
        WEBHOOK_VARIABLES);
  }

  private static Map<String, Value> bindings() {
    return Map.of("object", Value.nullValue(), "oldObject", Value.nullValue(),
        "request", Value.nullValue());
  }

  @Test
  void aResourceCheckDecidesTheMatch() {
    MatchConditions c = conditions("authorizer.group('').resource('pods').check('create')"
        + ".allowed()");
    assertThat(c.evaluate(bindings(), forRequest(true)))
        .isInstanceOf(MatchConditions.Result.Matched.class);
    assertThat(c.evaluate(bindings(), forRequest(false)))
        .isEqualTo(new MatchConditions.Result.NotMatched("authz"));
    assertThat(checks).containsOnly(
        new CelAuthorizer.Check("", "", "", "pods", "", "", "", "create"));
  }

  @Test
  void requestResourceIsTheRequestsResource() {
    MatchConditions c = conditions("authorizer.requestResource.check('delete').allowed()");
    assertThat(c.evaluate(bindings(), forRequest(true)))
        .isInstanceOf(MatchConditions.Result.Matched.class);
    assertThat(checks).containsExactly(
        new CelAuthorizer.Check("", "", "apps", "deployments", "scale", "prod", "web", "delete"));
  }
}
