/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.signer;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.certificates.CertificateRequest;
import io.apiserver4j.controllers.certificates.CsrStatus;
import io.apiserver4j.controllers.certificates.KubeletCsrs;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.SigningFiles;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code CSRSigningController}s (pkg/controller/certificates/signer/signer.go) for the
 * four built-in signers ({@code kubernetes.io/kube-apiserver-client},
 * {@code kubernetes.io/kube-apiserver-client-kubelet}, {@code kubernetes.io/kubelet-serving},
 * {@code kubernetes.io/legacy-unknown}) in one certificate controller loop, as user
 * {@code system:serviceaccount:kube-system:certificate-controller}.
 *
 * <p>An approved, not Failed request of one of those signers is checked with kube's rules for
 * that signer; a request that breaks them gets a {@code Failed} condition (reason
 * {@code SignerValidationFailure}, kube's message, {@code lastUpdateTime} on the server clock)
 * through {@code /status}; otherwise it is signed and its PEM certificate written to
 * {@code status.certificate}. The validity is {@code spec.expirationSeconds} bounded by kube's
 * ten-minute minimum and the signer's maximum (kube-controller-manager's
 * {@code --cluster-signing-duration}, one year by default), backdated as kube's policy does.
 *
 * <p>With kube-controller-manager's {@code --cluster-signing-cert-file}/{@code -key-file}, or the
 * per-signer pairs ({@code ClusterSigning}), each signer signs with the CA read from its files
 * when the controller starts (kube's {@code caProvider}; failing to read them fails the start with
 * kube's {@code failed to start <signer> certificate controller: ...}), and a signer without
 * files, beside per-signer ones, is not signed for. Without any file, as this project's default,
 * the controller generates an in-memory CA ({@link CertificateAuthority}) when it first signs:
 * certificates it issues chain to that CA only, and a new leader issues from a new CA.
 */
public final class CsrSigningController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(CsrSigningController.class);
  private static final int WORKERS = 5;
  /** kube-controller-manager's {@code --cluster-signing-duration} default. */
  static final Duration CLUSTER_SIGNING_DURATION = Duration.ofHours(8760);
  private static final GroupVersionResource CSRS =
      new GroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests");
  private static final Set<String> SIGNERS = Set.of(KubeletCsrs.KUBE_APISERVER_CLIENT,
      KubeletCsrs.KUBE_APISERVER_CLIENT_KUBELET, KubeletCsrs.KUBELET_SERVING,
      KubeletCsrs.LEGACY_UNKNOWN);
  /** The order kube starts the signers in, so the first unreadable file is the one reported. */
  private static final List<String> SIGNER_ORDER = List.of(KubeletCsrs.KUBELET_SERVING,
      KubeletCsrs.KUBE_APISERVER_CLIENT_KUBELET, KubeletCsrs.KUBE_APISERVER_CLIENT,
      KubeletCsrs.LEGACY_UNKNOWN);

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer csrs;
  private final WorkQueue<String> queue;
  /** Made at the first signing: a key pair costs time a manager that never signs need not pay. */
  private CertificateAuthority authority;
  /** The CAs read from files, by signer name; empty without files. */
  private final Map<String, CertificateAuthority> fileAuthorities;
  private final Duration maxDuration;
  private Workers workers;

  private CsrSigningController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("certificate-controller");
    SigningFiles signing = context.clusterSigning();
    this.maxDuration = signing.duration();
    Map<String, CertificateAuthority> cas = new LinkedHashMap<>();
    for (String signer : SIGNER_ORDER) {
      signing.files(signer).ifPresent(files -> {
        try {
          cas.put(signer, CaFileLoader.load(files));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("failed to start " + signer
              + " certificate controller: " + e.getMessage(), e);
        }
      });
    }
    this.fileAuthorities = Map.copyOf(cas);
    this.queue = context.newQueue("csrsigning");
    this.csrs = context.informers().informer(
        new GroupResource("certificates.k8s.io", "certificatesigningrequests"));
    csrs.addHandler(ResourceEventHandler.enqueueingNames(queue));
  }

  /** The {@code csrsigning} controller. */
  public static Controller create(ControllerContext context) {
    return new CsrSigningController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("csrsigning", queue, WORKERS, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /**
   * The CA of {@code signer}: the one read from its files, else (no file at all) the in-memory
   * one, made on first use with its validity starting on the server clock; empty when files
   * were given for other signers only.
   */
  private synchronized Optional<CertificateAuthority> authority(String signer) {
    if (context.clusterSigning().fromFiles()) {
      return Optional.ofNullable(fileAuthorities.get(signer));
    }
    if (authority == null) {
      authority = CertificateAuthority.generate(
          context.clock().instant().minus(SigningPolicy.BACKDATE));
    }
    return Optional.of(authority);
  }

  /** kube's certificate controller {@code syncFunc} with the signer's {@code handle}. */
  private Outcome sync(String name) {
    Optional<MapValue> cached = csrs.get("", name);
    if (cached.isEmpty() || CsrStatus.issued(cached.get())) {
      return Outcome.FORGET;
    }
    MapValue csr = cached.get();
    if (!CsrStatus.approved(csr) || CsrStatus.hasTrue(csr, "Failed")) {
      return Outcome.FORGET;
    }
    String signer = Nested.str(csr, "spec", "signerName");
    if (!SIGNERS.contains(signer)) {
      return Outcome.FORGET;
    }
    Optional<CertificateAuthority> ca = authority(signer);
    if (ca.isEmpty()) {
      // kube runs no signing loop for a signer whose files were not given
      return Outcome.FORGET;
    }
    CertificateRequest request;
    try {
      request = CertificateRequest.parse(Nested.str(csr, "spec", "request"));
    } catch (IllegalArgumentException e) {
      LOG.error("unable to parse csr {}: {}", name, e.getMessage());
      return Outcome.REQUEUE;
    }
    List<String> usages = new ArrayList<>();
    for (Value u : Nested.list(csr, "spec", "usages")) {
      usages.add(Nested.str(u));
    }
    Optional<String> invalid = validate(signer, request, usages);
    Instant now = context.clock().instant();
    if (invalid.isPresent()) {
      List<Value> conditions = new ArrayList<>(Nested.list(csr, "status", "conditions"));
      conditions.add(MapValue.ofEntries("type", Value.of("Failed"), "status", Value.of("True"),
          "reason", Value.of("SignerValidationFailure"), "message", Value.of(invalid.get()),
          "lastUpdateTime", Value.of(Meta.formatTime(now))));
      updateStatus(csr, "conditions", ListValue.of(conditions));
      return Outcome.FORGET;
    }
    Value seconds = Nested.getOrNull(csr, "spec", "expirationSeconds");
    Duration ttl = SigningPolicy.duration(seconds == null ? null
        : Nested.integer(csr, "spec", "expirationSeconds"), maxDuration);
    String pem;
    try {
      pem = ca.get().sign(request, usages, ttl, now);
    } catch (IllegalArgumentException e) {
      LOG.error("error auto signing csr {}: {}", name, e.getMessage());
      return Outcome.REQUEUE;
    }
    updateStatus(csr, "certificate", Value.of(Base64.getEncoder().encodeToString(
        pem.getBytes(StandardCharsets.US_ASCII))));
    return Outcome.FORGET;
  }

  /** kube's {@code isRequestForSignerFn} of {@code signer}: why the request breaks its rules. */
  static Optional<String> validate(String signer, CertificateRequest request,
      List<String> usages) {
    return switch (signer) {
      case KubeletCsrs.KUBELET_SERVING ->
          KubeletCsrs.validateServing(request, Set.copyOf(usages));
      case KubeletCsrs.KUBE_APISERVER_CLIENT_KUBELET ->
          KubeletCsrs.validateClient(request, Set.copyOf(usages));
      case KubeletCsrs.KUBE_APISERVER_CLIENT -> validApiServerClientUsages(usages);
      default -> Optional.empty();
    };
  }

  /** kube's {@code validAPIServerClientUsages}. */
  static Optional<String> validApiServerClientUsages(List<String> usages) {
    boolean clientAuth = false;
    for (String u : usages) {
      switch (u) {
        case "digital signature", "key encipherment" -> { }
        case "client auth" -> clientAuth = true;
        default -> {
          return Optional.of("invalid usage for client certificate: " + u);
        }
      }
    }
    return clientAuth ? Optional.empty()
        : Optional.of("missing required usage for client certificate: client auth");
  }

  private void updateStatus(MapValue csr, String field, Value value) {
    MapValue status = csr.getOrNull("status") instanceof MapValue s ? s : MapValue.empty();
    try {
      context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, CSRS)
          .name(Meta.metaString(csr, "name")).subresource("status")
          .options(UpdateOptions.defaults()).body(csr.with("status", status.with(field, value)))
          .user(user).fieldManager(ControllerContext.FIELD_MANAGER).build()).orThrow();
    } catch (NotFoundException e) {
      // deleted meanwhile
    }
  }
}
