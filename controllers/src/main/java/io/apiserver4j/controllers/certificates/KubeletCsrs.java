/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube's kubelet CSR rules (pkg/apis/certificates/helpers.go {@code ValidateKubeletClientCSR},
 * {@code ValidateKubeletServingCSR}) and the certificate controllers' condition helpers
 * (pkg/controller/certificates), with kube's messages.
 */
public final class KubeletCsrs {
  /** kube's {@code KubeAPIServerClientSignerName}. */
  public static final String KUBE_APISERVER_CLIENT = "kubernetes.io/kube-apiserver-client";
  /** kube's {@code KubeAPIServerClientKubeletSignerName}. */
  public static final String KUBE_APISERVER_CLIENT_KUBELET =
      "kubernetes.io/kube-apiserver-client-kubelet";
  /** kube's {@code KubeletServingSignerName}. */
  public static final String KUBELET_SERVING = "kubernetes.io/kubelet-serving";
  /** kube's v1beta1 {@code LegacyUnknownSignerName}. */
  public static final String LEGACY_UNKNOWN = "kubernetes.io/legacy-unknown";

  private static final Set<String> CLIENT_USAGES =
      Set.of("digital signature", "key encipherment", "client auth");
  private static final Set<String> CLIENT_USAGES_NO_RSA = Set.of("digital signature",
      "client auth");
  private static final Set<String> SERVING_USAGES =
      Set.of("digital signature", "key encipherment", "server auth");
  private static final Set<String> SERVING_USAGES_NO_RSA = Set.of("digital signature",
      "server auth");

  private KubeletCsrs() {}

  /** kube's {@code ValidateKubeletClientCSR}: why {@code req} is no kubelet client request. */
  public static Optional<String> validateClient(CertificateRequest req, Set<String> usages) {
    if (!req.organizations().equals(List.of("system:nodes"))) {
      return Optional.of("subject organization is not system:nodes");
    }
    if (!req.dnsNames().isEmpty()) {
      return Optional.of("DNS subjectAltNames are not allowed");
    }
    if (!req.emailAddresses().isEmpty()) {
      return Optional.of("Email subjectAltNames are not allowed");
    }
    if (req.ipAddresses() > 0) {
      return Optional.of("IP subjectAltNames are not allowed");
    }
    if (!req.uris().isEmpty()) {
      return Optional.of("URI subjectAltNames are not allowed");
    }
    if (!req.commonName().startsWith("system:node:")) {
      return Optional.of("subject common name does not begin with system:node:");
    }
    if (!usages.equals(CLIENT_USAGES) && !usages.equals(CLIENT_USAGES_NO_RSA)) {
      return Optional.of("usages did not match " + goList(CLIENT_USAGES));
    }
    return Optional.empty();
  }

  /** kube's {@code ValidateKubeletServingCSR}: why {@code req} is no kubelet serving request. */
  public static Optional<String> validateServing(CertificateRequest req, Set<String> usages) {
    if (!usages.equals(SERVING_USAGES) && !usages.equals(SERVING_USAGES_NO_RSA)) {
      return Optional.of("usages did not match " + goList(SERVING_USAGES));
    }
    if (!req.organizations().equals(List.of("system:nodes"))) {
      return Optional.of("subject organization is not system:nodes");
    }
    if (req.dnsNames().isEmpty() && req.ipAddresses() == 0) {
      return Optional.of("DNS or IP subjectAltName is required");
    }
    if (!req.emailAddresses().isEmpty()) {
      return Optional.of("Email subjectAltNames are not allowed");
    }
    if (!req.uris().isEmpty()) {
      return Optional.of("URI subjectAltNames are not allowed");
    }
    if (!req.commonName().startsWith("system:node:")) {
      return Optional.of("subject common name does not begin with system:node:");
    }
    return Optional.empty();
  }

  /** Go's {@code %v} of a sorted string list: {@code [a b c]}. */
  private static String goList(Set<String> s) {
    return "[" + String.join(" ", new TreeSet<>(s)) + "]";
  }
}
