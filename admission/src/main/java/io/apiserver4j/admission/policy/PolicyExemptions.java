/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.core.GroupResource;
import java.util.Set;

/**
 * The resources policies configured through the API never see, as kube's policy plugin: the
 * policies and bindings themselves, so a policy cannot lock out its own repair.
 */
final class PolicyExemptions {
  private static final String GROUP = "admissionregistration.k8s.io";
  private static final Set<GroupResource> EXEMPT = Set.of(
      new GroupResource(GROUP, "validatingadmissionpolicies"),
      new GroupResource(GROUP, "validatingadmissionpolicybindings"),
      new GroupResource(GROUP, "mutatingadmissionpolicies"),
      new GroupResource(GROUP, "mutatingadmissionpolicybindings"));

  private PolicyExemptions() {}

  static boolean exempt(GroupResource gr) {
    return EXEMPT.contains(gr);
  }
}
