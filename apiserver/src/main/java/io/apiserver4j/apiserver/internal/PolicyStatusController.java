/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.policy.PolicyTypeChecker;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a ValidatingAdmissionPolicy's {@code status} after each write of it, as kube's policy
 * type-checking controller: {@code observedGeneration} and {@code typeChecking} (its expressions
 * checked against the schemas of the kinds its rules name, see {@link PolicyTypeChecker}).
 * The status write is itself a write of the policy; it finds the status current and stops.
 */
final class PolicyStatusController implements WriteListener {
  private static final Logger LOG = LoggerFactory.getLogger(PolicyStatusController.class);
  private static final GroupVersionResource POLICIES = new GroupVersionResource(
      "admissionregistration.k8s.io", "v1", "validatingadmissionpolicies");
  private static final String CONTROLLER_AGENT = "kube-apiserver/v1.0.0 (linux/amd64)";

  private final Function<ApiRequest, ApiResponse> loopback;
  private final PolicyTypeChecker checker;

  PolicyStatusController(Registry registry, Function<ApiRequest, ApiResponse> loopback) {
    this.loopback = loopback;
    this.checker = new PolicyTypeChecker(
        r -> registry.find(r).map(ResourceDefinition::kind),
        k -> registry.findByKind(k).filter(d -> !d.customResource())
            .map(d -> new SchemaCelType(d.schema(),
                io.apiserver4j.merge.TypeRef.named(d.schemaType()))));
  }

  @Override
  public void committed(ResourceDefinition def, WriteOutcome outcome) {
    if (!def.groupResource().equals(POLICIES.groupResource())
        || outcome instanceof WriteOutcome.Deleted
        || Meta.hasMeta(outcome.object(), "deletionTimestamp")) {
      return;
    }
    MapValue policy = outcome.object();
    MapValue status = policy.getOrNull("status") instanceof MapValue s ? s : MapValue.empty();
    MapValue wanted = status
        .with("observedGeneration", Value.of(Meta.generation(policy)))
        .with("typeChecking", checker.typeChecking(policy));
    if (wanted.equals(status)) {
      return;
    }
    ApiResponse r = loopback.apply(ApiRequest.builder(ApiRequest.Verb.UPDATE, POLICIES)
        .name(Meta.metaString(policy, "name")).subresource("status")
        .body(policy.with("status", wanted)).userAgent(CONTROLLER_AGENT).build());
    if (!r.isSuccess() && r.code() != 409) {
      // a conflict means a newer write, whose own commit brings the status up to date
      LOG.warn("cannot write the status of ValidatingAdmissionPolicy {}: {}",
          Meta.metaString(policy, "name"), r.body());
    }
  }
}
