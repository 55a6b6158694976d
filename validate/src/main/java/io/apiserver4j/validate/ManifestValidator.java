/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.validate;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.plugins.NamespaceLifecycle;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.CreateOptions;
import io.apiserver4j.apiserver.DryRun;
import io.apiserver4j.apiserver.FieldValidation;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusReason;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Validates manifests through an in-process API server with the built-in kinds, as
 * {@code kubectl apply --dry-run=server} would against a fresh cluster: each object is a
 * server-side dry-run create ({@code dryRun=All}, {@code fieldValidation=Strict}, kubectl's field
 * manager), so it meets kube's decoding, defaulting, validation, CRD schemas and CEL rules, and
 * admission with the policies and bindings given.
 *
 * <p>What later objects depend on is created for real first, in this order: the objects of the
 * cluster snapshot (CRDs, then Namespaces, then the rest), then the manifests' CRDs, Namespaces and
 * admission policies with their bindings; their verdicts are those real creates'. A namespace
 * that manifests name but neither the snapshot nor the manifests create is created as well (a
 * validation has no cluster in which it could be missing). Webhook configurations are only
 * dry-run: their webhooks are not reachable from here. Verdicts come back in the order of the
 * manifests.
 *
 * <p>Not thread-safe; one instance validates one set of manifests against one server.
 */
public final class ManifestValidator implements AutoCloseable {
  /** kubectl apply's field manager for a create. */
  public static final String FIELD_MANAGER = "kubectl-client-side-apply";
  private static final String USER_AGENT =
      "kubectl/v1.36.0 (linux/amd64) kubernetes/apiserver4j-validate";
  private static final String CRD = "apiextensions.k8s.io/CustomResourceDefinition";
  private static final String NAMESPACE = "/Namespace";
  private static final Set<String> POLICIES = Set.of(
      "admissionregistration.k8s.io/ValidatingAdmissionPolicy",
      "admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding",
      "admissionregistration.k8s.io/MutatingAdmissionPolicy",
      "admissionregistration.k8s.io/MutatingAdmissionPolicyBinding");

  private final ApiServer api;
  private final boolean owned;

  /** A validator with a server of its own: the built-in kinds and NamespaceLifecycle. */
  public ManifestValidator() {
    // NamespaceLifecycle is on in every kube-apiserver, as in the server's own start
    this(ApiServer.builder()
        .admission(namespaces -> AdmissionChain.builder()
            .add(new NamespaceLifecycle(namespaces)).build())
        .build(), true);
  }

  private ManifestValidator(ApiServer api, boolean owned) {
    this.api = api;
    this.owned = owned;
  }

  /**
   * A validator on a server the caller owns (and closes): its kinds, CRDs, admission and stored
   * objects decide, as a dry run against that cluster would.
   *
   * @param api the server to validate against
   * @return a validator that does not close {@code api}
   */
  public static ManifestValidator on(ApiServer api) {
    return new ManifestValidator(api, false);
  }

  /**
   * Validates the manifests at {@code paths} (files, directories or {@code -}) against a fresh
   * server that holds the objects at {@code cluster}.
   *
   * @param paths where the manifests are
   * @param cluster where the objects that already exist are (may be empty)
   * @param stdin what {@code -} reads
   * @return the verdicts of refused cluster objects first, then one per manifest
   */
  public static List<Verdict> validatePaths(List<String> paths, List<String> cluster,
      InputStream stdin) {
    List<Manifest> manifests = new ArrayList<>();
    for (String p : paths) {
      manifests.addAll(Manifests.read(p, stdin));
    }
    List<Manifest> snapshot = new ArrayList<>();
    for (String p : cluster) {
      snapshot.addAll(Manifests.read(p, stdin));
    }
    try (ManifestValidator validator = new ManifestValidator()) {
      List<Verdict> verdicts = new ArrayList<>(validator.load(snapshot));
      verdicts.addAll(validator.validate(manifests));
      return verdicts;
    }
  }

  /**
   * Creates the snapshot's objects for real (CRDs, Namespaces, policies, then the rest, with the
   * namespaces they name).
   *
   * @param snapshot objects of the cluster the manifests are validated against
   * @return a BAD_INPUT verdict for each that could not be read or was refused
   */
  public List<Verdict> load(List<Manifest> snapshot) {
    List<Verdict> problems = new ArrayList<>();
    List<Manifest> ordered = new ArrayList<>(snapshot);
    ordered.sort(Comparator.comparingInt(ManifestValidator::phase));
    boolean namespacesEnsured = false;
    for (Manifest m : ordered) {
      if (phase(m) == 3 && !namespacesEnsured) {
        ensureNamespaces(snapshot);
        namespacesEnsured = true;
      }
      if (m.problem().isPresent()) {
        problems.add(new Verdict(m, Verdict.Result.BAD_INPUT, "error: " + m.problem().get(),
            Optional.empty()));
        continue;
      }
      Verdict v = create(m, DryRun.NONE);
      if (v.result() != Verdict.Result.VALID) {
        problems.add(new Verdict(m, Verdict.Result.BAD_INPUT,
            "the cluster snapshot's object at " + m.location() + " was refused: " + v.message(),
            v.status()));
      }
    }
    return problems;
  }

  /**
   * Validates {@code manifests}; one verdict per manifest, in their order.
   *
   * @param manifests documents as {@link Manifests} reads them
   * @return one verdict per manifest
   */
  public List<Verdict> validate(List<Manifest> manifests) {
    Verdict[] verdicts = new Verdict[manifests.size()];
    Integer[] order = new Integer[manifests.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingInt(i -> phase(manifests.get(i))));
    boolean namespacesEnsured = false;
    for (int i : order) {
      Manifest m = manifests.get(i);
      int phase = phase(m);
      if (phase == 3 && !namespacesEnsured) {
        ensureNamespaces(manifests);
        namespacesEnsured = true;
      }
      verdicts[i] = m.problem().isPresent()
          ? new Verdict(m, Verdict.Result.BAD_INPUT, "error: " + m.problem().get(),
              Optional.empty())
          : create(m, phase < 3 ? DryRun.NONE : DryRun.ALL);
    }
    return List.of(verdicts);
  }

  private static String groupKind(MapValue o) {
    String apiVersion = string(o, "apiVersion");
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    return group + "/" + string(o, "kind");
  }

  /** 0 CRDs, 1 Namespaces, 2 admission policies and bindings, 3 everything else. */
  private static int phase(Manifest m) {
    if (m.object().isEmpty()) {
      return 3;
    }
    String gk = groupKind(m.object().get());
    return gk.equals(CRD) ? 0 : gk.equals(NAMESPACE) ? 1 : POLICIES.contains(gk) ? 2 : 3;
  }

  /** Creates the namespaces that dry-run objects will name and nothing has created. */
  private void ensureNamespaces(List<Manifest> manifests) {
    Set<String> done = new HashSet<>();
    for (Manifest m : manifests) {
      if (m.object().isEmpty()) {
        continue;
      }
      MapValue o = m.object().get();
      Optional<ResourceDefinition> def = definition(o);
      if (def.isEmpty() || !def.get().namespaced()) {
        continue;
      }
      String ns = namespaceOf(o);
      if (!done.add(ns) || api.resources("v1", "namespaces").find(ns).isPresent()) {
        continue;
      }
      // a namespace that is not valid is left to the object's own verdict to report
      api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE,
              new GroupVersionResource("", "v1", "namespaces")).name("")
          .body(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":"
              + Json.quote(ns) + "}}"))
          .build());
    }
  }

  private Optional<ResourceDefinition> definition(MapValue o) {
    String apiVersion = string(o, "apiVersion");
    String kind = string(o, "kind");
    if (apiVersion.isEmpty() || kind.isEmpty()) {
      return Optional.empty();
    }
    try {
      return api.registry().findByKind(GroupVersionKind.of(apiVersion, kind));
    } catch (IllegalArgumentException e) {
      // an apiVersion that is not group/version: no resource can have it
      return Optional.empty();
    }
  }

  private static String namespaceOf(MapValue o) {
    String ns = Meta.metaString(o, "namespace");
    return ns == null || ns.isEmpty() ? "default" : ns;
  }

  /** One create of {@code m}'s object, for real or as a dry run, with kubectl's line. */
  private Verdict create(Manifest m, DryRun dryRun) {
    MapValue o = m.object().orElseThrow();
    String apiVersion = string(o, "apiVersion");
    String kind = string(o, "kind");
    String name = Optional.ofNullable(Meta.metaString(o, "name")).orElse("");
    if (apiVersion.isEmpty() || kind.isEmpty()) {
      List<String> missing = new ArrayList<>();
      if (apiVersion.isEmpty()) {
        missing.add("apiVersion not set");
      }
      if (kind.isEmpty()) {
        missing.add("kind not set");
      }
      // kubectl's client-side check before anything is sent
      return new Verdict(m, Verdict.Result.INVALID, "error: error validating \"" + m.source()
          + "\": error validating data: " + missing + "; if you choose to ignore these errors,"
          + " turn validation off with --validate=false", Optional.empty());
    }
    Optional<ResourceDefinition> def = definition(o);
    if (def.isEmpty()) {
      String ns = def.isPresent() ? namespaceOf(o) : Optional.ofNullable(
          Meta.metaString(o, "namespace")).orElse("");
      return new Verdict(m, Verdict.Result.INVALID, "error: resource mapping not found for name: \""
          + name + "\" namespace: \"" + ns + "\" from \"" + m.source() + "\": no matches for kind \""
          + kind + "\" in version \"" + apiVersion + "\"\nensure CRDs are installed first",
          Optional.empty());
    }
    ResourceDefinition d = def.get();
    ApiRequest.Builder request = ApiRequest.builder(ApiRequest.Verb.CREATE, d.resource())
        .name("")
        .options(new CreateOptions(dryRun, FIELD_MANAGER, FieldValidation.STRICT))
        .rawBody(Json.writeBytes(o), "application/json")
        .userAgent(USER_AGENT);
    if (d.namespaced()) {
      request.namespace(namespaceOf(o));
    }
    ApiResponse response = api.handle(request.build());
    Optional<Status> failure = response.failure();
    String verb = "created";
    if (failure.isPresent() && failure.get().reason() == StatusReason.ALREADY_EXISTS
        && !name.isEmpty()) {
      // kubectl apply updates what exists (an earlier document, or the server's own object)
      Optional<ApiResponse> updated = update(d, o, name, dryRun);
      if (updated.isPresent()) {
        response = updated.get();
        failure = response.failure();
        verb = "configured";
      }
    }
    if (failure.isPresent()) {
      Status s = failure.get();
      String reason = s.reason() == StatusReason.UNKNOWN ? "" : " (" + s.reason().wireName() + ")";
      return new Verdict(m, Verdict.Result.INVALID, "Error from server" + reason
          + ": error when creating \"" + m.source() + "\": " + s.message(), failure);
    }
    String created = Optional.ofNullable(Meta.metaString(response.body(), "name")).orElse(name);
    String group = d.kind().group();
    return new Verdict(m, Verdict.Result.VALID, kind.toLowerCase(Locale.ROOT)
        + (group.isEmpty() ? "" : "." + group) + "/" + created + " " + verb + " (server dry run)",
        Optional.empty());
  }

  /**
   * An update of the stored object with {@code o} at the stored resourceVersion; empty when it
   * is gone meanwhile.
   */
  private Optional<ApiResponse> update(ResourceDefinition d, MapValue o, String name,
      DryRun dryRun) {
    String namespace = d.namespaced() ? namespaceOf(o) : "";
    ResourceClient client = api.resources(d.resource());
    Optional<MapValue> stored = (d.namespaced() ? client.namespace(namespace) : client).find(name);
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    MapValue body = Nested.set(o, Value.of(Meta.metaString(stored.get(), "resourceVersion")),
        "metadata", "resourceVersion");
    ApiRequest.Builder request = ApiRequest.builder(ApiRequest.Verb.UPDATE, d.resource())
        .name(name)
        .options(new UpdateOptions(dryRun, FIELD_MANAGER, FieldValidation.STRICT))
        .rawBody(Json.writeBytes(body), "application/json")
        .userAgent(USER_AGENT);
    if (d.namespaced()) {
      request.namespace(namespace);
    }
    return Optional.of(api.handle(request.build()));
  }

  private static String string(MapValue o, String key) {
    Value v = o.getOrNull(key);
    return v instanceof StringValue s ? s.value() : "";
  }

  /** Closes the server this validator started; a server given to {@link #on} stays open. */
  @Override
  public void close() {
    if (owned) {
      api.close();
    }
  }
}
