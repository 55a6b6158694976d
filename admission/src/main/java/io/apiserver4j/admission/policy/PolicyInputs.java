package io.apiserver4j.admission.policy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;

/** The {@code request} and {@code namespaceObject} values, shaped as kube builds them. */
final class PolicyInputs {
  private static final List<String> NAMESPACE_META = List.of("name", "generateName",
      "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
      "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "finalizers");

  private PolicyInputs() {}

  /**
   * kube's {@code CreateAdmissionRequest} as JSON (Go's omitempty applied): the request's kind and
   * resource both as matched and as requested (the same here: no version conversion).
   */
  static MapValue request(AdmissionAttributes a) {
    MapValue kind = kind(a.kind());
    MapValue resource = resource(a.resource());
    MapValue.Builder b = MapValue.builder(16)
        .put("uid", Value.of(""))
        .put("kind", kind)
        .put("resource", resource);
    if (!a.subresource().isEmpty()) {
      b.put("subResource", Value.of(a.subresource()));
    }
    b.put("requestKind", kind).put("requestResource", resource);
    if (!a.subresource().isEmpty()) {
      b.put("requestSubResource", Value.of(a.subresource()));
    }
    if (!a.name().isEmpty()) {
      b.put("name", Value.of(a.name()));
    }
    if (!a.namespace().isEmpty()) {
      b.put("namespace", Value.of(a.namespace()));
    }
    b.put("operation", Value.of(a.operation().wireName()))
        .put("userInfo", userInfo(a.userInfo()))
        .put("dryRun", Value.of(a.isDryRun()));
    if (!a.options().isEmpty()) {
      b.put("options", a.options());
    }
    return b.build();
  }

  private static MapValue kind(GroupVersionKind k) {
    return MapValue.ofEntries("group", Value.of(k.group()), "version", Value.of(k.version()),
        "kind", Value.of(k.kind()));
  }

  private static MapValue resource(GroupVersionResource r) {
    return MapValue.ofEntries("group", Value.of(r.group()), "version", Value.of(r.version()),
        "resource", Value.of(r.resource()));
  }

  private static MapValue userInfo(UserInfo u) {
    MapValue.Builder b = MapValue.builder(4);
    if (!u.name().isEmpty()) {
      b.put("username", Value.of(u.name()));
    }
    if (!u.uid().isEmpty()) {
      b.put("uid", Value.of(u.uid()));
    }
    if (!u.groups().isEmpty()) {
      b.put("groups", PolicyActivation.strings(u.groups()));
    }
    if (!u.extra().isEmpty()) {
      MapValue.Builder extra = MapValue.builder(u.extra().size());
      for (Map.Entry<String, List<String>> e : u.extra().entrySet()) {
        extra.put(e.getKey(), PolicyActivation.strings(e.getValue()));
      }
      b.put("extra", extra.build());
    }
    return b.build();
  }

  /**
   * kube's {@code CreateNamespaceObject}: the namespace's spec, status and the metadata fields
   * policies may read (no managedFields or owner references).
   */
  static Value namespaceObject(MapValue namespace) {
    MapValue.Builder out = MapValue.builder(3);
    Value metaValue = namespace.getOrNull("metadata");
    if (metaValue instanceof MapValue meta) {
      MapValue.Builder m = MapValue.builder(NAMESPACE_META.size());
      for (String key : NAMESPACE_META) {
        Value v = meta.getOrNull(key);
        if (v != null) {
          m.put(key, v);
        }
      }
      out.put("metadata", m.build());
    }
    for (String key : List.of("spec", "status")) {
      Value v = namespace.getOrNull(key);
      if (v != null) {
        out.put(key, v);
      }
    }
    return out.build();
  }

  static boolean isNamespace(GroupVersionKind k) {
    return k.group().isEmpty() && k.version().equals("v1") && k.kind().equals("Namespace");
  }

  static ListValue emptyList() {
    return ListValue.builder(0).build();
  }
}
