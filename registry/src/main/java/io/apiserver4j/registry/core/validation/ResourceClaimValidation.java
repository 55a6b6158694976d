/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code validatePodResourceClaims} and {@code validateResourceClaimNames}: the claims of
 * a pod and the containers' references to them. Stateless.
 */
final class ResourceClaimValidation {
  private ResourceClaimValidation() {}

  /** {@code validateResourceClaimNames}: a container's claims name the pod's. */
  static void claimReferences(List<MapValue> claims, Set<String> podClaims, String path,
      List<FieldError> errs) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < claims.size(); i++) {
      String at = index(path, i);
      String name = str(claims.get(i), "name");
      String request = str(claims.get(i), "request");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at, ""));
        continue;
      }
      if (seen.contains(name)) {
        errs.add(FieldError.duplicate(at, Value.of(name)));
      } else {
        String key = name;
        if (!request.isEmpty()) {
          for (String msg : MetaValidation.dns1123Label(request)) {
            errs.add(FieldError.invalid(at + ".request", Value.of(request), msg));
          }
          key += "/" + request;
        }
        if (seen.contains(key)) {
          errs.add(FieldError.duplicate(at, Value.of(key)));
        } else if (request.isEmpty()) {
          for (String k : seen) {
            if (k.startsWith(name + "/")) {
              errs.add(FieldError.duplicate(at, Value.of(name)));
            }
          }
        }
        seen.add(key);
      }
      if (!podClaims.contains(name)) {
        errs.add(new FieldError(FieldError.Type.NOT_FOUND, at, Optional.of(Value.of(name)),
            "must be one of the names in pod.spec.resourceClaims" + (podClaims.isEmpty()
                ? " which is empty" : ": " + String.join(", ", new java.util.TreeSet<>(podClaims)))));
      }
    }
  }

  /**
   * {@code validatePodResourceClaims}: unique DNS-label names, each with one of a claim or a
   * template name; returns the names containers may refer to.
   */
  static Set<String> podResourceClaims(MapValue spec, String path, List<FieldError> errs) {
    List<MapValue> claims = items(spec.getOrNull("resourceClaims"));
    Set<String> gathered = new HashSet<>();
    claims.forEach(c -> {
      if (!str(c, "name").isEmpty()) {
        gathered.add(str(c, "name"));
      }
    });
    Set<String> names = new HashSet<>();
    for (int i = 0; i < claims.size(); i++) {
      MapValue c = claims.get(i);
      String at = index(path, i);
      String name = str(c, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + ".name", ""));
      } else if (names.contains(name)) {
        errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
      } else {
        for (String msg : MetaValidation.dns1123Label(name)) {
          errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
        }
        names.add(name);
      }
      Value claim = c.getOrNull("resourceClaimName");
      Value template = c.getOrNull("resourceClaimTemplateName");
      boolean hasClaim = claim instanceof StringValue;
      boolean hasTemplate = template instanceof StringValue;
      // kube passes the internal PodResourceClaim: JSON with Go field names
      String json = "{\"Name\":" + Json.write(Value.of(name)) + ",\"ResourceClaimName\":"
          + (hasClaim ? Json.write(claim) : "null") + ",\"ResourceClaimTemplateName\":"
          + (hasTemplate ? Json.write(template) : "null") + "}";
      if (hasClaim && hasTemplate) {
        errs.add(GroupValidation.invalidGo(at, json, "at most one of `resourceClaimName` or"
            + " `resourceClaimTemplateName` may be specified"));
      }
      if (!hasClaim && !hasTemplate) {
        errs.add(GroupValidation.invalidGo(at, json,
            "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"));
      }
      for (Value v : new Value[] {claim, template}) {
        if (v instanceof StringValue s) {
          for (String msg : MetaValidation.dns1123Subdomain(s.value())) {
            errs.add(FieldError.invalid(at + "." + (v == claim ? "resourceClaimName"
                : "resourceClaimTemplateName"), s, msg));
          }
        }
      }
    }
    return gathered;
  }
}
