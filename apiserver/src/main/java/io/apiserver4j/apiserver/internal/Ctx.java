package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.storage.ObjectKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The state of one request while it runs: the endpoint it resolved to, the time it started
 * (every timestamp the request writes is this one), whether it is a dry run, its field
 * validation directive and the warnings raised so far.
 */
final class Ctx {
  /** kube's {@code fieldValidation} directives. */
  enum FieldValidation { IGNORE, WARN, STRICT }

  final ApiRequest request;
  final Instant now;
  final List<String> warnings = new ArrayList<>();
  ResourceDefinition def;
  String subresource = "";
  String namespace = "";
  String name = "";
  boolean dryRun;
  FieldValidation validation = FieldValidation.WARN;
  String manager = "";
  /** The revision at which the request deleted its object, 0 if it did not. */
  long deletedRevision;

  Ctx(ApiRequest request, Instant now) {
    this.request = request;
    this.now = now;
  }

  void warn(String warning) {
    warnings.add(warning);
  }

  List<String> warnings() {
    return List.copyOf(new LinkedHashSet<>(warnings));
  }

  GroupResource groupResource() {
    return def.groupResource();
  }

  GroupVersionKind kind() {
    return def.kind();
  }

  ObjectKey key(String objectName) {
    return new ObjectKey(def.kind().group(), def.plural(), def.namespaced() ? namespace : "",
        objectName);
  }
}
