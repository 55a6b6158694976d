/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.serviceaccount;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.ObjectKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * kube-apiserver's {@code ServiceAccount} admission plugin
 * ({@code plugin/pkg/admission/serviceaccount}), on Pod creates:
 *
 * <ul>
 *   <li>sets {@code spec.serviceAccountName} to {@code default} when empty, and refuses the Pod
 *       (403 {@code error looking up service account <ns>/<name>: serviceaccount "<name>" not
 *       found}) when that ServiceAccount does not exist; a missing {@code default} one is looked
 *       up again for a while, as kube does, since its controller creates it with the namespace;
 *   <li>unless the Pod or its ServiceAccount turn {@code automountServiceAccountToken} off,
 *       mounts the projected volume {@code kube-api-access-<5 random>} (a bound token of 3607 s,
 *       {@code kube-root-ca.crt}'s {@code ca.crt} and the namespace) read-only at
 *       {@code /var/run/secrets/kubernetes.io/serviceaccount} in every init and app container
 *       that has nothing mounted there;
 *   <li>copies the ServiceAccount's {@code imagePullSecrets} when the Pod has none;
 *   <li>refuses mirror Pods that reference a ServiceAccount, secrets or token projections, and
 *       (when the ServiceAccount carries {@code kubernetes.io/enforce-mountable-secrets: "true"})
 *       Pods that reference secrets the ServiceAccount does not list.
 * </ul>
 *
 * <p>Side effects: none. Thread-safe.
 */
public final class ServiceAccountAdmission implements MutatingPlugin, ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "ServiceAccount";
  /** The ServiceAccount a Pod without one runs as. */
  public static final String DEFAULT_SERVICE_ACCOUNT = "default";
  /** Where the token volume is mounted. */
  public static final String TOKEN_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
  /** The prefix of the generated token volume's name. */
  public static final String VOLUME_PREFIX = "kube-api-access-";
  static final String MIRROR_POD = "kubernetes.io/config.mirror";
  static final String ENFORCE_MOUNTABLE_SECRETS = "kubernetes.io/enforce-mountable-secrets";
  /** kube's {@code WarnOnlyBoundTokenExpirationSeconds}. */
  static final long TOKEN_EXPIRATION_SECONDS = 3607;
  /** kube's apimachinery name generator alphabet (no vowels, no confusable digits). */
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  /** kube looks up a missing default ServiceAccount this many times. */
  private static final int DEFAULT_ATTEMPTS = 10;
  /** kube waits 100 to 200 ms between lookups. */
  private static final long RETRY_MILLIS = 100;

  private final AdmissionPluginContext server;

  /**
   * A plugin reading ServiceAccounts from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public ServiceAccountAdmission(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return a.resource().group().isEmpty() && a.resource().resource().equals("pods")
        && (a.subresource().isEmpty() || a.subresource().equals("ephemeralcontainers"))
        && a.object().isPresent();
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue pod) {
    if (a.operation() != Operation.CREATE || !a.subresource().isEmpty()) {
      return pod;
    }
    if (Meta.annotations(pod).containsKey(MIRROR_POD)) {
      validate(a.withObject(pod));
      return pod;
    }
    MapValue spec = specOf(pod);
    String saName = Admissions.str(spec, "serviceAccountName");
    if (saName.isEmpty()) {
      saName = DEFAULT_SERVICE_ACCOUNT;
      spec = spec.with("serviceAccountName", Value.of(saName));
    }
    MapValue sa = serviceAccount(a, saName);
    if (shouldAutomount(sa, spec)) {
      spec = mountToken(spec);
    }
    if (Admissions.maps(spec, "imagePullSecrets").isEmpty()) {
      List<Value> pulls = new ArrayList<>();
      for (MapValue ref : Admissions.maps(sa, "imagePullSecrets")) {
        pulls.add(MapValue.ofEntries("name", Value.of(Admissions.str(ref, "name"))));
      }
      if (!pulls.isEmpty()) {
        spec = spec.with("imagePullSecrets", ListValue.of(pulls));
      }
    }
    MapValue out = pod.with("spec", spec);
    validate(a.withObject(out));
    return out.equals(pod) ? pod : out;
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (a.operation() == Operation.UPDATE && a.subresource().equals("ephemeralcontainers")) {
      limitEphemeralContainerSecrets(a);
      return;
    }
    if (a.operation() != Operation.CREATE || !a.subresource().isEmpty()) {
      return;
    }
    MapValue pod = a.object().orElseThrow();
    MapValue spec = specOf(pod);
    if (Meta.annotations(pod).containsKey(MIRROR_POD)) {
      if (!Admissions.str(spec, "serviceAccountName").isEmpty()) {
        throw AdmissionErrors.forbidden(a, "a mirror pod may not reference service accounts");
      }
      if (!secretNames(spec, true).isEmpty()) {
        throw AdmissionErrors.forbidden(a, "a mirror pod may not reference secrets");
      }
      for (MapValue v : Admissions.maps(spec, "volumes")) {
        for (MapValue source : Admissions.maps(v.getOrNull("projected") instanceof MapValue p
            ? p : null, "sources")) {
          if (source.containsKey("serviceAccountToken")) {
            throw AdmissionErrors.forbidden(a,
                "a mirror pod may not use ServiceAccountToken volume projections");
          }
        }
      }
      return;
    }
    String saName = Admissions.str(spec, "serviceAccountName");
    if (saName.isEmpty()) {
      throw AdmissionErrors.forbidden(a, "no service account specified for pod "
          + a.namespace() + "/" + Meta.metaString(pod, "name"));
    }
    MapValue sa = serviceAccount(a, saName);
    if (enforceMountableSecrets(sa)) {
      limitSecretReferences(a, sa, spec);
    }
  }

  private static MapValue specOf(MapValue pod) {
    return pod.getOrNull("spec") instanceof MapValue m ? m : MapValue.empty();
  }

  /**
   * The ServiceAccount, as kube's {@code getServiceAccount}: a missing {@code default} one is
   * looked up again, since the controller creates it right after its namespace.
   */
  private MapValue serviceAccount(AdmissionAttributes a, String name) {
    ObjectKey key = ObjectKey.namespaced("", "serviceaccounts", a.namespace(), name);
    int attempts = name.equals(DEFAULT_SERVICE_ACCOUNT) ? DEFAULT_ATTEMPTS : 1;
    for (int i = 0; i < attempts; i++) {
      Optional<MapValue> sa = server.get(key);
      if (sa.isPresent()) {
        return sa.get();
      }
      if (i + 1 < attempts && !pause()) {
        break;
      }
    }
    throw AdmissionErrors.forbidden(a, "error looking up service account " + a.namespace() + "/"
        + name + ": serviceaccount \"" + name + "\" not found");
  }

  /** Waits before the next lookup; false when interrupted (the lookup then gives up). */
  private static boolean pause() {
    // not the server's random: a retry must not shift the names it generates later
    long jitter = java.util.concurrent.ThreadLocalRandom.current().nextLong(RETRY_MILLIS);
    try {
      TimeUnit.MILLISECONDS.sleep(RETRY_MILLIS + jitter);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static boolean shouldAutomount(MapValue sa, MapValue spec) {
    if (spec.getOrNull("automountServiceAccountToken") instanceof BooleanValue b) {
      return b.value();
    }
    if (sa.getOrNull("automountServiceAccountToken") instanceof BooleanValue b) {
      return b.value();
    }
    return true;
  }

  private MapValue mountToken(MapValue spec) {
    String volumeName = "";
    boolean hasVolume = false;
    for (MapValue v : Admissions.maps(spec, "volumes")) {
      String n = Admissions.str(v, "name");
      if (n.startsWith(VOLUME_PREFIX)) {
        volumeName = n;
        hasVolume = true;
        break;
      }
    }
    if (volumeName.isEmpty()) {
      volumeName = VOLUME_PREFIX + randomSuffix();
    }
    MapValue mount = MapValue.ofEntries("name", Value.of(volumeName), "readOnly", Value.of(true),
        "mountPath", Value.of(TOKEN_MOUNT_PATH));
    boolean[] needed = new boolean[1];
    spec = withMounts(spec, "initContainers", mount, needed);
    spec = withMounts(spec, "containers", mount, needed);
    if (!hasVolume && needed[0]) {
      List<Value> volumes = new ArrayList<>(Admissions.maps(spec, "volumes"));
      volumes.add(tokenVolume(volumeName));
      spec = spec.with("volumes", ListValue.of(volumes));
    }
    return spec;
  }

  private static MapValue withMounts(MapValue spec, String key, MapValue mount, boolean[] needed) {
    if (!(spec.getOrNull(key) instanceof ListValue containers)) {
      return spec;
    }
    List<Value> out = new ArrayList<>();
    for (Value c : containers.items()) {
      if (c instanceof MapValue container) {
        boolean mounted = false;
        for (MapValue m : Admissions.maps(container, "volumeMounts")) {
          if (Admissions.str(m, "mountPath").equals(TOKEN_MOUNT_PATH)) {
            mounted = true;
            break;
          }
        }
        if (!mounted) {
          List<Value> mounts = new ArrayList<>(Admissions.maps(container, "volumeMounts"));
          mounts.add(mount);
          container = container.with("volumeMounts", ListValue.of(mounts));
          needed[0] = true;
        }
        out.add(container);
      } else {
        out.add(c);
      }
    }
    return spec.with(key, ListValue.of(out));
  }

  /** kube's {@code TokenVolumeSource}, with the default mode set explicitly as kube does. */
  static MapValue tokenVolume(String name) {
    return MapValue.ofEntries("name", Value.of(name), "projected", MapValue.ofEntries(
        "defaultMode", Value.of(420L),
        "sources", Value.list(
            MapValue.ofEntries("serviceAccountToken", MapValue.ofEntries(
                "expirationSeconds", Value.of(TOKEN_EXPIRATION_SECONDS),
                "path", Value.of("token"))),
            MapValue.ofEntries("configMap", MapValue.ofEntries(
                "name", Value.of("kube-root-ca.crt"),
                "items", Value.list(MapValue.ofEntries("key", Value.of("ca.crt"),
                    "path", Value.of("ca.crt"))))),
            MapValue.ofEntries("downwardAPI", MapValue.ofEntries(
                "items", Value.list(MapValue.ofEntries("path", Value.of("namespace"),
                    "fieldRef", MapValue.ofEntries("apiVersion", Value.of("v1"),
                        "fieldPath", Value.of("metadata.namespace")))))))));
  }

  private String randomSuffix() {
    java.util.Random random = server.random();
    StringBuilder b = new StringBuilder(5);
    synchronized (random) {
      for (int i = 0; i < 5; i++) {
        b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
    }
    return b.toString();
  }

  private static boolean enforceMountableSecrets(MapValue sa) {
    return "true".equalsIgnoreCase(Meta.annotations(sa).getOrDefault(ENFORCE_MOUNTABLE_SECRETS,
        "")) || "1".equals(Meta.annotations(sa).get(ENFORCE_MOUNTABLE_SECRETS))
        || "t".equalsIgnoreCase(Meta.annotations(sa).getOrDefault(ENFORCE_MOUNTABLE_SECRETS, ""));
  }

  private static Set<String> names(MapValue sa, String key) {
    Set<String> out = new LinkedHashSet<>();
    Admissions.maps(sa, key).forEach(r -> out.add(Admissions.str(r, "name")));
    return out;
  }

  /** kube's {@code limitSecretReferences}, with its messages. */
  private static void limitSecretReferences(AdmissionAttributes a, MapValue sa, MapValue spec) {
    Set<String> mountable = names(sa, "secrets");
    String saName = Meta.metaString(sa, "name");
    for (MapValue v : Admissions.maps(spec, "volumes")) {
      if (v.getOrNull("secret") instanceof MapValue s) {
        String secret = Admissions.str(s, "secretName");
        if (!mountable.contains(secret)) {
          throw AdmissionErrors.forbidden(a, "volume with secret.secretName=\"" + secret
              + "\" is not allowed because service account " + saName
              + " does not reference that secret");
        }
      }
    }
    checkContainers(a, spec, "initContainers", "init container", mountable, saName);
    checkContainers(a, spec, "containers", "container", mountable, saName);
    Set<String> pulls = names(sa, "imagePullSecrets");
    List<MapValue> refs = Admissions.maps(spec, "imagePullSecrets");
    for (int i = 0; i < refs.size(); i++) {
      String n = Admissions.str(refs.get(i), "name");
      if (!pulls.contains(n)) {
        throw AdmissionErrors.forbidden(a, "imagePullSecrets[" + i + "].name=\"" + n
            + "\" is not allowed because service account " + saName
            + " does not reference that imagePullSecret");
      }
    }
  }

  private static void checkContainers(AdmissionAttributes a, MapValue spec, String key,
      String what, Set<String> mountable, String saName) {
    for (MapValue c : Admissions.maps(spec, key)) {
      String cname = Admissions.str(c, "name");
      for (MapValue env : Admissions.maps(c, "env")) {
        if (env.getOrNull("valueFrom") instanceof MapValue from
            && from.getOrNull("secretKeyRef") instanceof MapValue ref
            && !mountable.contains(Admissions.str(ref, "name"))) {
          throw AdmissionErrors.forbidden(a, what + " " + cname + " with envVar "
              + Admissions.str(env, "name") + " referencing secret.secretName=\""
              + Admissions.str(ref, "name") + "\" is not allowed because service account "
              + saName + " does not reference that secret");
        }
      }
      for (MapValue from : Admissions.maps(c, "envFrom")) {
        if (from.getOrNull("secretRef") instanceof MapValue ref
            && !mountable.contains(Admissions.str(ref, "name"))) {
          throw AdmissionErrors.forbidden(a, what + " " + cname
              + " with envFrom referencing secret.secretName=\"" + Admissions.str(ref, "name")
              + "\" is not allowed because service account " + saName
              + " does not reference that secret");
        }
      }
    }
  }

  /** The ephemeral containers an update adds may reference only the ServiceAccount's secrets. */
  private void limitEphemeralContainerSecrets(AdmissionAttributes a) {
    MapValue spec = specOf(a.object().orElseThrow());
    String saName = Admissions.str(spec, "serviceAccountName");
    if (saName.isEmpty()) {
      return;
    }
    MapValue sa = serviceAccount(a, saName);
    if (!enforceMountableSecrets(sa)) {
      return;
    }
    Set<String> mountable = names(sa, "secrets");
    checkContainers(a, spec, "ephemeralContainers", "ephemeral container", mountable,
        Meta.metaString(sa, "name"));
  }

  /** Every secret name the spec references (volumes, env, envFrom, pull secrets). */
  private static Set<String> secretNames(MapValue spec, boolean includePullSecrets) {
    Set<String> out = new LinkedHashSet<>();
    for (MapValue v : Admissions.maps(spec, "volumes")) {
      if (v.getOrNull("secret") instanceof MapValue s) {
        out.add(Admissions.str(s, "secretName"));
      }
      if (v.getOrNull("projected") instanceof MapValue p) {
        for (MapValue src : Admissions.maps(p, "sources")) {
          if (src.getOrNull("secret") instanceof MapValue s) {
            out.add(Admissions.str(s, "name"));
          }
        }
      }
      for (String driver : List.of("azureFile", "cephfs", "cinder", "flexVolume", "rbd",
          "scaleIO", "iscsi", "storageos", "csi")) {
        if (v.getOrNull(driver) instanceof MapValue d) {
          if (d.getOrNull("secretRef") instanceof MapValue ref) {
            out.add(Admissions.str(ref, "name"));
          }
          if (d.containsKey("secretName")) {
            out.add(Admissions.str(d, "secretName"));
          }
          if (d.getOrNull("nodePublishSecretRef") instanceof MapValue ref) {
            out.add(Admissions.str(ref, "name"));
          }
        }
      }
    }
    for (String key : List.of("initContainers", "containers", "ephemeralContainers")) {
      for (MapValue c : Admissions.maps(spec, key)) {
        for (MapValue env : Admissions.maps(c, "env")) {
          if (env.getOrNull("valueFrom") instanceof MapValue from
              && from.getOrNull("secretKeyRef") instanceof MapValue ref) {
            out.add(Admissions.str(ref, "name"));
          }
        }
        for (MapValue from : Admissions.maps(c, "envFrom")) {
          if (from.getOrNull("secretRef") instanceof MapValue ref) {
            out.add(Admissions.str(ref, "name"));
          }
        }
      }
    }
    if (includePullSecrets) {
      Admissions.maps(spec, "imagePullSecrets").forEach(r -> out.add(Admissions.str(r, "name")));
    }
    return out;
  }
}
