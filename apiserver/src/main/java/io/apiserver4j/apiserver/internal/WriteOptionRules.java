/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.PatchOptions;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.dryrun.OptionsKind;
import io.apiserver4j.fieldpath.ManagedFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code ValidateCreateOptions}, {@code ValidateUpdateOptions} and
 * {@code ValidatePatchOptions} on the typed options of a write, and the manager a write is
 * recorded under.
 */
final class WriteOptionRules {
  private WriteOptionRules() {}

  /** Checks the options of a write; the patch type for patches. */
  static void check(ApiRequest r, OptionsKind kind, Optional<PatchType> patchType) {
    List<FieldError> errs = new ArrayList<>();
    if (patchType.isPresent()) {
      if (patchType.get().isApply()) {
        if (r.fieldManager().isEmpty()) {
          errs.add(FieldError.required("fieldManager", "is required for apply patch"));
        }
      } else if (r.options() instanceof PatchOptions p && p.force().isPresent()) {
        errs.add(FieldError.forbidden("force", "may not be specified for non-apply patch"));
      }
    }
    errs.addAll(ManagedFields.validateManager(r.fieldManager(), "fieldManager"));
    if (!errs.isEmpty()) {
      throw StatusErrors.invalid(kind.groupKind(), "", errs);
    }
  }

  /** kube's {@code managerOrUserAgent}: the manager, or the User-Agent up to its first '/'. */
  static String managerOrUserAgent(String manager, String userAgent) {
    if (!manager.isEmpty()) {
      return manager;
    }
    int slash = userAgent.indexOf('/');
    String prefix = slash >= 0 ? userAgent.substring(0, slash) : userAgent;
    StringBuilder sb = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < prefix.length(); ) {
      int cp = prefix.codePointAt(i);
      i += Character.charCount(cp);
      if (!GoStrings.isPrint(cp)) {
        continue;
      }
      int len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; // its UTF-8 bytes
      if (bytes + len > ManagedFields.MAX_MANAGER_BYTES) {
        break;
      }
      bytes += len;
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }
}
