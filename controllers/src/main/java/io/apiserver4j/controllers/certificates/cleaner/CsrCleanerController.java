/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.cleaner;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code CSRCleanerController} (pkg/controller/certificates/cleaner/cleaner.go), as user
 * {@code system:serviceaccount:kube-system:certificate-controller}: once at start and every
 * hour of the server clock it deletes each cached CertificateSigningRequest that is
 * <ul>
 *   <li>Approved and issued, its Approved condition updated more than an hour ago;
 *   <li>Denied, or Failed, that condition updated more than an hour ago;
 *   <li>Pending (no condition at all) and created more than 24 hours ago;
 *   <li>Approved and issued with a first certificate whose {@code notAfter} has passed.
 * </ul>
 * A certificate that is no PEM certificate counts as not expired, as kube's {@code isExpired}.
 */
public final class CsrCleanerController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(CsrCleanerController.class);
  /** kube's {@code pollingInterval}. */
  static final Duration POLLING_INTERVAL = Duration.ofHours(1);
  /** kube's {@code approvedExpiration}. */
  static final Duration APPROVED_EXPIRATION = Duration.ofHours(1);
  /** kube's {@code deniedExpiration}, also for Failed requests. */
  static final Duration DENIED_EXPIRATION = Duration.ofHours(1);
  /** kube's {@code pendingExpiration}. */
  static final Duration PENDING_EXPIRATION = Duration.ofHours(24);
  private static final GroupVersionResource CSRS =
      new GroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests");
  private static final String POLL = "poll";

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer csrs;
  private final WorkQueue<String> loop;
  private Workers workers;

  private CsrCleanerController(ControllerContext context) {
    this.context = context;
    // kube starts the cleaner with the certificate-controller's client
    this.user = ControllerContext.serviceAccount("certificate-controller");
    this.csrs = context.informers().informer(
        new GroupResource("certificates.k8s.io", "certificatesigningrequests"));
    this.loop = context.newQueue("csrcleaner");
  }

  /** The {@code csrcleaner} controller. */
  public static Controller create(ControllerContext context) {
    return new CsrCleanerController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("csrcleaner", loop, 1, key -> {
      Instant started = context.clock().instant();
      try {
        for (MapValue csr : csrs.list()) {
          handle(csr, started);
        }
      } finally {
        loop.addAt(POLL, started.plus(POLLING_INTERVAL));
      }
      return Outcome.FORGET;
    });
    loop.add(POLL);
  }

  @Override
  public void resetInPlace() {
    loop.add(POLL);
  }

  @Override
  public void close() {
    Workers.close(workers, loop);
  }

  private void handle(MapValue csr, Instant now) {
    if (!shouldDelete(csr, now)) {
      return;
    }
    String name = Meta.metaString(csr, "name");
    try {
      context.client(CSRS, user).delete(name);
    } catch (NotFoundException e) {
      // gone already
    } catch (StatusException e) {
      LOG.error("Error while attempting to clean CSR {}", name, e);
    }
  }

  /** kube's {@code handle} criteria at {@code now}. */
  static boolean shouldDelete(MapValue csr, Instant now) {
    return issuedPastDeadline(csr, now) || conditionPastDeadline(csr, "Denied", now)
        || conditionPastDeadline(csr, "Failed", now) || pendingPastDeadline(csr, now)
        || issuedExpired(csr, now);
  }

  private static boolean issuedPastDeadline(MapValue csr, Instant now) {
    return issued(csr) && Nested.list(csr, "status", "conditions").stream().anyMatch(c ->
        Nested.str(c, "type").equals("Approved")
            && olderThan(Pods.time(c, "lastUpdateTime"), APPROVED_EXPIRATION, now));
  }

  private static boolean conditionPastDeadline(MapValue csr, String type, Instant now) {
    return Nested.list(csr, "status", "conditions").stream().anyMatch(c ->
        Nested.str(c, "type").equals(type)
            && olderThan(Pods.time(c, "lastUpdateTime"), DENIED_EXPIRATION, now));
  }

  private static boolean pendingPastDeadline(MapValue csr, Instant now) {
    return Nested.list(csr, "status", "conditions").isEmpty() && olderThan(
        Pods.time(csr, "metadata", "creationTimestamp"), PENDING_EXPIRATION, now);
  }

  private static boolean issuedExpired(MapValue csr, Instant now) {
    if (!issued(csr)) {
      return false;
    }
    boolean approved = Nested.list(csr, "status", "conditions").stream()
        .anyMatch(c -> Nested.str(c, "type").equals("Approved"));
    return approved && notAfter(csr).map(now::isAfter).orElse(false);
  }

  /** kube's {@code isOlderThan}: a time that is set and more than {@code d} before now. */
  private static boolean olderThan(Optional<Instant> t, Duration d, Instant now) {
    return t.isPresent() && Duration.between(t.get(), now).compareTo(d) > 0;
  }

  /** kube's {@code isIssued}: a certificate is set. */
  private static boolean issued(MapValue csr) {
    return !Nested.str(csr, "status", "certificate").isEmpty();
  }

  /**
   * The {@code notAfter} of the first certificate of the request's PEM (the field holds it
   * base64-encoded on the wire); empty when it is no PEM certificate.
   */
  static Optional<Instant> notAfter(MapValue csr) {
    Value v = Nested.getOrNull(csr, "status", "certificate");
    if (v == null) {
      return Optional.empty();
    }
    try {
      byte[] pem = Base64.getDecoder().decode(Nested.str(csr, "status", "certificate"));
      String text = new String(pem, StandardCharsets.US_ASCII);
      if (!text.contains("-----BEGIN CERTIFICATE-----")) {
        return Optional.empty();
      }
      X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(pem));
      return Optional.of(cert.getNotAfter().toInstant());
    } catch (IllegalArgumentException | CertificateException | ClassCastException e) {
      return Optional.empty();
    }
  }
}
