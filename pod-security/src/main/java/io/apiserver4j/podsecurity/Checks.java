/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static io.apiserver4j.podsecurity.Level.BASELINE;
import static io.apiserver4j.podsecurity.Level.RESTRICTED;

import java.util.List;

/**
 * The Pod Security Standards checks kube's {@code policy.DefaultChecks} registers, with the
 * policy version each implementation starts at and kube's messages.
 */
public final class Checks {
  private Checks() {}

  private static final List<Check> DEFAULT = List.of(
      check("allowPrivilegeEscalation", RESTRICTED,
          Check.Versioned.of(v(8), RestrictedChecks::allowPrivilegeEscalation1_8),
          Check.Versioned.of(v(25), RestrictedChecks::allowPrivilegeEscalation1_25)),
      check("appArmorProfile", BASELINE,
          Check.Versioned.of(v(0), BaselineChecks::appArmorProfile1_0)),
      check(BaselineChecks.CAPABILITIES_BASELINE, BASELINE,
          Check.Versioned.of(v(0), BaselineChecks::capabilitiesBaseline1_0)),
      check("capabilities_restricted", RESTRICTED,
          overriding(v(22), RestrictedChecks::capabilitiesRestricted1_22,
              BaselineChecks.CAPABILITIES_BASELINE),
          overriding(v(25), RestrictedChecks::capabilitiesRestricted1_25,
              BaselineChecks.CAPABILITIES_BASELINE)),
      check("hostNamespaces", BASELINE,
          Check.Versioned.of(v(0), BaselineChecks::hostNamespaces1_0)),
      check(BaselineChecks.HOST_PATH_VOLUMES, BASELINE,
          Check.Versioned.of(v(0), BaselineChecks::hostPathVolumes1_0)),
      check("hostPorts", BASELINE, Check.Versioned.of(v(0), BaselineChecks::hostPorts1_0)),
      check("hostProbesAndHostLifecycle", BASELINE,
          Check.Versioned.of(v(34), BaselineChecks::hostProbesAndHostLifecycle1_34)),
      check("privileged", BASELINE, Check.Versioned.of(v(0), BaselineChecks::privileged1_0)),
      check(BaselineChecks.PROC_MOUNT, BASELINE,
          Check.Versioned.of(v(0), BaselineChecks::procMount1_0),
          Check.Versioned.of(v(35), BaselineChecks::procMount1_35)),
      check("procMount_restricted", RESTRICTED,
          overriding(v(35), BaselineChecks::procMount1_0, BaselineChecks.PROC_MOUNT)),
      check("restrictedVolumes", RESTRICTED,
          overriding(v(0), RestrictedChecks::restrictedVolumes1_0,
              BaselineChecks.HOST_PATH_VOLUMES)),
      check("runAsNonRoot", RESTRICTED,
          Check.Versioned.of(v(0), RestrictedChecks::runAsNonRoot1_0),
          Check.Versioned.of(v(35), RestrictedChecks::runAsNonRoot1_35)),
      check("runAsUser", RESTRICTED,
          Check.Versioned.of(v(23), RestrictedChecks::runAsUser1_23),
          Check.Versioned.of(v(35), RestrictedChecks::runAsUser1_35)),
      check("seLinuxOptions", BASELINE,
          Check.Versioned.of(v(0), BaselineChecks::seLinuxOptions1_0),
          Check.Versioned.of(v(31), BaselineChecks::seLinuxOptions1_31)),
      check(BaselineChecks.SECCOMP_BASELINE, BASELINE,
          Check.Versioned.of(v(0), BaselineChecks::seccompProfileBaseline1_0),
          Check.Versioned.of(v(19), BaselineChecks::seccompProfileBaseline1_19)),
      check("seccompProfile_restricted", RESTRICTED,
          overriding(v(19), RestrictedChecks::seccompProfileRestricted1_19,
              BaselineChecks.SECCOMP_BASELINE),
          overriding(v(25), RestrictedChecks::seccompProfileRestricted1_25,
              BaselineChecks.SECCOMP_BASELINE)),
      check("sysctls", BASELINE,
          Check.Versioned.of(v(0), (m, s) -> BaselineChecks.sysctls(s,
              BaselineChecks.SYSCTLS_ALLOWED_1_0)),
          Check.Versioned.of(v(27), (m, s) -> BaselineChecks.sysctls(s,
              BaselineChecks.SYSCTLS_ALLOWED_1_27)),
          Check.Versioned.of(v(29), (m, s) -> BaselineChecks.sysctls(s,
              BaselineChecks.SYSCTLS_ALLOWED_1_29)),
          Check.Versioned.of(v(32), (m, s) -> BaselineChecks.sysctls(s,
              BaselineChecks.SYSCTLS_ALLOWED_1_32))),
      check("windowsHostProcess", BASELINE,
          Check.Versioned.of(v(0), BaselineChecks::windowsHostProcess1_0)));

  /**
   * kube's default checks: every baseline and restricted check of the Pod Security Standards.
   *
   * @return the checks, immutable
   */
  public static List<Check> defaultChecks() {
    return DEFAULT;
  }

  /**
   * The default check with {@code id}.
   *
   * @param id e.g. {@code runAsNonRoot}
   * @return the check
   * @throws IllegalArgumentException when there is none
   */
  public static Check check(String id) {
    return DEFAULT.stream().filter(c -> c.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no check " + id));
  }

  private static Check check(String id, Level level, Check.Versioned... versions) {
    return new Check(id, level, List.of(versions));
  }

  private static Check.Versioned overriding(PolicyVersion v, PodCheck check, String overridden) {
    return new Check.Versioned(v, check, List.of(overridden));
  }

  private static PolicyVersion v(int minor) {
    return PolicyVersion.of(1, minor);
  }
}
