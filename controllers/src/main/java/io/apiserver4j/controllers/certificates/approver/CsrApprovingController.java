/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.approver;

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
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code sarApprover} (pkg/controller/certificates/approver/sarapprove.go) in the
 * certificate controller loop, as user
 * {@code system:serviceaccount:kube-system:certificate-controller}: a CertificateSigningRequest
 * with no certificate, approval or denial yet that one of kube's recognizers matches (a kubelet
 * client request of signer {@code kubernetes.io/kube-apiserver-client-kubelet}; "self" when the
 * requester is the subject's common name) is approved through {@code /approval} with
 * {@code AutoApproved} and kube's message once a SubjectAccessReview, created through the server
 * (its authorizer answers), allows the requester {@code create} on
 * {@code certificatesigningrequests/selfnodeclient} or {@code .../nodeclient}. A request
 * recognized but not allowed is retried with backoff, as kube's ignorable error is.
 */
public final class CsrApprovingController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(CsrApprovingController.class);
  /** kube-controller-manager's workers for the certificate controllers. */
  private static final int WORKERS = 5;
  private static final GroupVersionResource CSRS =
      new GroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests");
  private static final GroupVersionResource SARS =
      new GroupVersionResource("authorization.k8s.io", "v1", "subjectaccessreviews");

  /** One of kube's {@code csrRecognizer}s. */
  record Recognizer(BiPredicate<MapValue, CertificateRequest> recognize, String subresource,
      String successMessage) {}

  /** kube's {@code recognizers()}, in its order. */
  static final List<Recognizer> RECOGNIZERS = List.of(
      new Recognizer(CsrApprovingController::isSelfNodeClientCert, "selfnodeclient",
          "Auto approving self kubelet client certificate after SubjectAccessReview."),
      new Recognizer(CsrApprovingController::isNodeClientCert, "nodeclient",
          "Auto approving kubelet client certificate after SubjectAccessReview."));

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer csrs;
  private final WorkQueue<String> queue;
  private Workers workers;

  private CsrApprovingController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("certificate-controller");
    this.queue = context.newQueue("certificate");
    this.csrs = context.informers().informer(
        new GroupResource("certificates.k8s.io", "certificatesigningrequests"));
    csrs.addHandler(ResourceEventHandler.enqueueingNames(queue));
  }

  /** The {@code csrapproving} controller. */
  public static Controller create(ControllerContext context) {
    return new CsrApprovingController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("csrapproving", queue, WORKERS, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /** kube's certificate controller {@code syncFunc} with the approver's {@code handle}. */
  private Outcome sync(String name) {
    Optional<MapValue> cached = csrs.get("", name);
    if (cached.isEmpty() || CsrStatus.issued(cached.get())) {
      return Outcome.FORGET;
    }
    MapValue csr = cached.get();
    if (CsrStatus.has(csr, "Approved") || CsrStatus.has(csr, "Denied")) {
      return Outcome.FORGET;
    }
    CertificateRequest request;
    try {
      request = CertificateRequest.parse(Nested.str(csr, "spec", "request"));
    } catch (IllegalArgumentException e) {
      LOG.error("unable to parse csr {}: {}", name, e.getMessage());
      return Outcome.REQUEUE;
    }
    List<String> tried = new ArrayList<>();
    for (Recognizer r : RECOGNIZERS) {
      if (!r.recognize().test(csr, request)) {
        continue;
      }
      tried.add(r.subresource());
      if (authorize(csr, r.subresource())) {
        approve(csr, r.successMessage());
        return Outcome.FORGET;
      }
    }
    if (!tried.isEmpty()) {
      LOG.debug("recognized csr {} as {} but subject access review was not approved", name,
          tried);
      return Outcome.REQUEUE;
    }
    return Outcome.FORGET;
  }

  /** kube's {@code isNodeClientCert}. */
  static boolean isNodeClientCert(MapValue csr, CertificateRequest request) {
    return Nested.str(csr, "spec", "signerName").equals(KubeletCsrs.KUBE_APISERVER_CLIENT_KUBELET)
        && KubeletCsrs.validateClient(request, CsrStatus.usages(csr)).isEmpty();
  }

  /** kube's {@code isSelfNodeClientCert}: the requester is the subject's common name. */
  static boolean isSelfNodeClientCert(MapValue csr, CertificateRequest request) {
    return Nested.str(csr, "spec", "username").equals(request.commonName())
        && isNodeClientCert(csr, request);
  }

  /** kube's {@code authorize}: a SubjectAccessReview for the requester, created through the API. */
  private boolean authorize(MapValue csr, String subresource) {
    MapValue spec = Nested.map(csr, "spec");
    MapValue.Builder review = MapValue.builder();
    for (String f : new String[] {"username", "uid", "groups", "extra"}) {
      Value v = spec.getOrNull(f);
      if (v != null) {
        review.put(f.equals("username") ? "user" : f, v);
      }
    }
    review.put("resourceAttributes", MapValue.ofEntries("group",
        Value.of("certificates.k8s.io"), "resource", Value.of("certificatesigningrequests"),
        "verb", Value.of("create"), "subresource", Value.of(subresource)));
    MapValue sar = context.client(SARS, user).create(MapValue.ofEntries(
        "apiVersion", Value.of("authorization.k8s.io/v1"), "kind",
        Value.of("SubjectAccessReview"), "spec", review.build()));
    return Nested.bool(sar, "status", "allowed");
  }

  /** kube's {@code appendApprovalCondition} and {@code UpdateApproval}. */
  private void approve(MapValue csr, String message) {
    List<Value> conditions = new ArrayList<>(Nested.list(csr, "status", "conditions"));
    conditions.add(MapValue.ofEntries("type", Value.of("Approved"), "status", Value.of("True"),
        "reason", Value.of("AutoApproved"), "message", Value.of(message)));
    MapValue status = csr.getOrNull("status") instanceof MapValue s ? s : MapValue.empty();
    MapValue updated = csr.with("status", status.with("conditions", ListValue.of(conditions)));
    try {
      context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, CSRS)
          .name(Meta.metaString(csr, "name")).subresource("approval")
          .options(UpdateOptions.defaults()).body(updated)
          .user(user).fieldManager(ControllerContext.FIELD_MANAGER).build()).orThrow();
    } catch (NotFoundException e) {
      // deleted meanwhile
    }
  }
}
