/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.ForbiddenException;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusReason;

/**
 * The errors admission plugins return, with kube-apiserver's messages.
 */
public final class AdmissionErrors {
  private AdmissionErrors() {}

  /**
   * 403 for a plugin's denial, as kube's {@code admission.NewForbidden}:
   * {@code <resource> "<name>" is forbidden: <reason>}, where the name is the request's, else the
   * object's name or generateName, else {@code Unknown}.
   *
   * @param attributes the request
   * @param reason the plugin's reason
   * @return the 403 exception
   */
  public static ForbiddenException forbidden(AdmissionAttributes attributes, String reason) {
    requireNonNull(attributes, "attributes");
    requireNonNull(reason, "reason");
    GroupResource gr = attributes.resource().groupResource();
    String name = subjectName(attributes);
    if (gr.resource().isEmpty() && gr.group().isEmpty()) {
      return new ForbiddenException(Status.failure(StatusReason.FORBIDDEN,
          "forbidden: " + reason, StatusDetails.of(name, "", "")));
    }
    return StatusErrors.forbidden(gr, name, reason);
  }

  /**
   * 400 {@code admission webhook "<name>" does not support dry run}: the rejection of a dry-run
   * request by a plugin whose side effects are {@link SideEffects#SOME} or
   * {@link SideEffects#UNKNOWN}.
   *
   * @param pluginName the plugin (or webhook) name
   * @return the 400 exception
   */
  public static BadRequestException dryRunUnsupported(String pluginName) {
    requireNonNull(pluginName, "pluginName");
    return StatusErrors.badRequest(
        "admission webhook \"" + pluginName + "\" does not support dry run");
  }

  /** The name kube puts in admission denials (see {@link #forbidden}). */
  static String subjectName(AdmissionAttributes a) {
    if (!a.name().isEmpty()) {
      return a.name();
    }
    MapValue object = a.object().orElse(null);
    if (object == null) {
      return "Unknown";
    }
    String name = Meta.metaString(object, "name");
    if (!name.isEmpty()) {
      return name;
    }
    String generateName = Meta.metaString(object, "generateName");
    if (!generateName.isEmpty()) {
      return generateName;
    }
    return "Unknown";
  }
}
