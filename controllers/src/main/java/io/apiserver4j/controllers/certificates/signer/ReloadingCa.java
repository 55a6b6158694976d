/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.signer;

import io.apiserver4j.controllers.internal.SigningFiles.CaFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A signer's CA from its files that follows them when they change, as kube's csrsigning
 * {@code caProvider} over {@code dynamiccertificates.NewDynamicServingContentFromFiles}: the
 * dynamic content re-reads the files on a file-system event (and every minute), and
 * {@code currentCA} parses the content again when its bytes differ from those of the CA it
 * holds. Here {@link #current} reads the files before each signing (the check a file-system
 * event triggers in kube), so a certificate signed after a rotation chains to the new CA. A
 * content that cannot be read or parsed (a rotation half done: the new certificate beside the
 * old key) is logged and the last good CA kept, as kube's dynamic content keeps its last good
 * pair. Thread-safe.
 */
final class ReloadingCa {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingCa.class);

  private final String signer;
  private final CaFiles files;
  private CaFileLoader.Content content;
  private CertificateAuthority authority;
  /** The last content that could not be parsed: not parsed (nor logged) again. */
  private CaFileLoader.Content rejected;

  private ReloadingCa(String signer, CaFiles files, CaFileLoader.Content content,
      CertificateAuthority authority) {
    this.signer = signer;
    this.files = files;
    this.content = content;
    this.authority = authority;
  }

  /**
   * Reads the CA of {@code files} for {@code signer}.
   *
   * @throws IllegalArgumentException as {@link CaFileLoader#load}
   */
  static ReloadingCa load(String signer, CaFiles files) {
    CaFileLoader.Content content = CaFileLoader.read(files);
    return new ReloadingCa(signer, files, content,
        CaFileLoader.parse(files, content.certPem(), content.keyPem()));
  }

  /** The CA the files hold now, or the last good one if they cannot be used. */
  synchronized CertificateAuthority current() {
    CaFileLoader.Content now;
    try {
      now = CaFileLoader.read(files);
    } catch (IllegalArgumentException e) {
      LOG.warn("{}: keeping the CA loaded before: {}", signer, e.getMessage());
      return authority;
    }
    if (now.equals(content) || now.equals(rejected)) {
      return authority;
    }
    try {
      authority = CaFileLoader.parse(files, now.certPem(), now.keyPem());
      content = now;
      LOG.info("{}: loaded a new CA from {} and {}", signer, files.certFile(), files.keyFile());
    } catch (IllegalArgumentException e) {
      rejected = now;
      LOG.warn("{}: keeping the CA loaded before: {}", signer, e.getMessage());
    }
    return authority;
  }
}
