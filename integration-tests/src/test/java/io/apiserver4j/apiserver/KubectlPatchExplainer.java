/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Explains why kubectl sent a strategic merge patch on a second client-side {@code kubectl
 * apply} of an unchanged manifest, and fails when the reason is a field kube-apiserver would
 * not store.
 *
 * <p>On a second apply of the same file, the last-applied configuration equals the manifest,
 * so kubectl's three-way patch (apimachinery's {@code strategicpatch.CreateThreeWayMergePatch})
 * holds only the manifest's values that the live object does not have as written, plus the
 * directives its diff adds ({@code $setElementOrder}, {@code $retainKeys}) and whole values
 * where the patch strategy is atomic or {@code replace}. Each part of the patch is checked
 * against the manifest and the live object; what is allowed is what a kube-apiserver 1.36 does
 * too:
 *
 * <ul>
 *   <li>{@code quantity}: the live value is the same quantity as the manifest's, written as
 *       kube serializes quantities (apimachinery {@code resource.Quantity}: a string, in its
 *       canonical form);
 *   <li>{@code null}: the manifest sets the field to null, which kubectl sends every time and
 *       kube does not store; or a list (of a custom resource, which kubectl merge-patches
 *       whole) whose elements hold nulls, which kubectl leaves out of what it creates and
 *       sends, so that the stored list never equals the manifest's;
 *   <li>{@code stringData}: a Secret's {@code stringData}, which kube's Secret strategy merges
 *       into {@code data} (base64) and never stores;
 *   <li>{@code completed}: an atomic list, a {@code retainKeys} map or a merge list (sent with
 *       {@code $setElementOrder}) whose live value is the manifest's completed by kube's
 *       defaulting or admission: every field and element the live value has beyond the
 *       manifest's must be listed in {@code realworld-kubectl-completions.tsv} with the kube
 *       source that adds it; a field kube would not add fails;
 *   <li>{@code requestsFromLimits}: a Pod container's {@code resources} compared as kube
 *       defaults them, with each limit that has no request copied to the requests;
 *   <li>{@code unchanged}: parts equal to the live value, which kubectl sends by its patch
 *       strategy ({@code replace}) or as a merge key.
 * </ul>
 */
final class KubectlPatchExplainer {
  /** Merge keys of kube's built-in lists, tried in this order to match list elements. */
  private static final List<String> MERGE_KEYS = List.of("name", "mountPath", "containerPort",
      "port", "devicePath", "ip", "type", "topologyKey", "key");

  /** One completion kube makes: the kind, the path of a field or list element, its value. */
  private record Completion(String kind, String path, Value value) {}

  private static final List<Completion> COMPLETIONS = completions();

  private static List<Completion> completions() {
    List<Completion> out = new ArrayList<>();
    try (var in = KubectlPatchExplainer.class.getResourceAsStream(
        "realworld-kubectl-completions.tsv")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.startsWith("#") && !line.isBlank()) {
          String[] cols = line.split("\t");
          out.add(new Completion(cols[0], cols[1], Json.read(cols[2])));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(out);
  }

  private final String kind;
  /** The CRD's schema of the object's version; empty for built-in kinds. */
  private final MapValue schema;
  private final Set<String> reasons = new TreeSet<>();
  private final List<String> failures = new ArrayList<>();

  private KubectlPatchExplainer(String kind, MapValue schema) {
    this.kind = kind;
    this.schema = schema;
  }

  /** A path of field names and {@code []} for list elements. */
  private record P(List<String> segments) {
    static final P ROOT = new P(List.of());

    P then(String segment) {
      List<String> s = new ArrayList<>(segments);
      s.add(segment);
      return new P(List.copyOf(s));
    }

    boolean isRoot() {
      return segments.isEmpty();
    }

    @Override
    public String toString() {
      return String.join(".", segments).replace(".[]", "[]");
    }
  }

  /** The reasons a patch was sent, or the parts kube would not have caused. */
  record Explanation(Set<String> reasons, List<String> failures) {}

  /**
   * Explains {@code patch}, kubectl's patch of {@code live} for {@code manifest}.
   *
   * @param kind the object's kind
   * @param schema the {@code openAPIV3Schema} of the object's CRD at its version, empty for
   *     a built-in kind (whose defaults the completions table lists)
   * @param patch the strategic merge patch kubectl sent
   * @param manifest the object as the manifest has it
   * @param live the object as the server has it
   * @return the reasons, and the failures (empty when kube would have caused every part)
   */
  static Explanation explain(String kind, MapValue schema, MapValue patch, MapValue manifest,
      MapValue live) {
    KubectlPatchExplainer e = new KubectlPatchExplainer(kind, schema);
    e.map(P.ROOT, patch, manifest, live);
    if (e.reasons.isEmpty() && e.failures.isEmpty()) {
      e.reasons.add("unchanged");
    }
    return new Explanation(Set.copyOf(e.reasons), List.copyOf(e.failures));
  }

  private void map(P path, MapValue patch, MapValue manifest, MapValue live) {
    patch.forEach((key, pv) -> {
      P p = path.then(key);
      if (key.startsWith("$setElementOrder/")) {
        String list = key.substring("$setElementOrder/".length());
        // the order and membership of a merge list; changed elements are in the patch
        ordered(path.then(list), manifest.getOrNull(list), live.getOrNull(list));
        reasons.add("completed");
      } else if (key.equals("$retainKeys")) {
        live.forEach((k, v) -> {
          if (!manifest.containsKey(k)) {
            completion(path.then(k), v);
          }
        });
        reasons.add("completed");
      } else if (key.startsWith("$")) {
        failures.add(p + ": directive " + key + " " + pv);
      } else if (kind.equals("Secret") && p.toString().equals("stringData")) {
        stringData(pv, live);
      } else {
        value(p, pv, manifest.getOrNull(key), live.getOrNull(key), manifest.containsKey(key));
      }
    });
  }

  private void value(P path, Value pv, Value mv, Value lv, boolean inManifest) {
    if (pv instanceof NullValue) {
      if (inManifest && mv instanceof NullValue && (lv == null || lv instanceof NullValue)) {
        reasons.add("null");
      } else {
        failures.add(path + ": kubectl removes it, the live value is " + lv);
      }
      return;
    }
    if (pv instanceof ListValue && !pv.equals(mv) && mv != null && pv.equals(withoutNulls(mv))) {
      // kubectl leaves the nulls inside a list out of the object it creates and out of its
      // patches (apimachinery's jsonmergepatch keepOrDeleteNullInJsonPatch), so kube never
      // stores them: the list differs from the manifest on every apply and is sent whole
      reasons.add("null");
      mv = withoutNulls(mv);
    }
    if (!pv.equals(mv)) {
      if (pv instanceof MapValue pm && mv instanceof MapValue mm && lv instanceof MapValue lm) {
        map(path, pm, mm, lm);
      } else if (pv instanceof ListValue pl && mv instanceof ListValue ml
          && lv instanceof ListValue ll) {
        mergeList(path, pl, ml, ll);
      } else {
        failures.add(path + ": patch " + pv + ", manifest " + mv + ", live " + lv);
      }
      return;
    }
    if (pv.equals(lv)) {
      return;
    }
    if (pv instanceof MapValue pm && lv instanceof MapValue lm) {
      // a whole map (a replace strategy or a new element's content): what differs
      contained(path, pm, lm);
    } else if (pv instanceof ListValue) {
      // an atomic list, sent whole
      completedList(path, mv, lv);
      reasons.add("completed");
    } else {
      scalar(path, pv, lv);
    }
  }

  /** {@code v} without the null fields of its maps, at any depth. */
  private static Value withoutNulls(Value v) {
    if (v instanceof MapValue m) {
      MapValue out = MapValue.empty();
      for (Map.Entry<String, Value> e : m.asMap().entrySet()) {
        if (!(e.getValue() instanceof NullValue)) {
          out = out.with(e.getKey(), withoutNulls(e.getValue()));
        }
      }
      return out;
    }
    if (v instanceof ListValue l) {
      return ListValue.of(l.items().stream().map(KubectlPatchExplainer::withoutNulls).toList());
    }
    return v;
  }

  /** The elements of a merge list kubectl patches: matched by merge key. */
  private void mergeList(P path, ListValue patch, ListValue manifest, ListValue live) {
    for (Value pe : patch.items()) {
      if (!(pe instanceof MapValue pm)) {
        failures.add(path + "[]: element " + pe + " of a list of scalars");
        continue;
      }
      Optional<String> key = MERGE_KEYS.stream().filter(pm::containsKey).findFirst();
      if (key.isEmpty()) {
        failures.add(path + "[]: element " + pe + " without a merge key");
        continue;
      }
      MapValue me = element(manifest, key.get(), pm.getOrNull(key.get()));
      MapValue le = element(live, key.get(), pm.getOrNull(key.get()));
      if (me == null || le == null) {
        failures.add(path + "[]: element " + pe + " is not in the manifest or live (" + le
            + ")");
        continue;
      }
      map(path.then("[]"), pm, me, le);
    }
  }

  private static MapValue element(ListValue list, String key, Value keyValue) {
    for (Value v : list.items()) {
      if (v instanceof MapValue m && keyValue.equals(m.getOrNull(key))) {
        return m;
      }
    }
    return null;
  }

  /**
   * A merge list whose live value must have the manifest's elements (matched by merge key, or
   * equal for lists of scalars); the live value's other elements must be completions.
   */
  private void ordered(P path, Value mv, Value lv) {
    if (!(mv instanceof ListValue ml) || !(lv instanceof ListValue ll)) {
      failures.add(path + ": manifest " + mv + ", live " + lv);
      return;
    }
    List<Value> rest = new ArrayList<>(ll.items());
    for (Value me : ml.items()) {
      Value le = null;
      if (me instanceof MapValue mm) {
        String key = MERGE_KEYS.stream().filter(mm::containsKey).findFirst().orElse(null);
        le = key == null ? null : element(ll, key, mm.getOrNull(key));
      } else if (ll.items().contains(me)) {
        le = me;
      }
      if (le == null) {
        failures.add(path + "[]: " + me + " is not stored");
      } else {
        rest.remove(le);
      }
    }
    for (Value extra : rest) {
      completion(path.then("[]"), extra);
    }
  }

  /**
   * An atomic list whose live value must be the manifest's completed, element by element;
   * extra live elements must be completions.
   */
  private void completedList(P path, Value mv, Value lv) {
    if (!(mv instanceof ListValue ml) || !(lv instanceof ListValue ll)) {
      failures.add(path + ": manifest " + mv + ", live " + lv);
      return;
    }
    for (int i = 0; i < ml.size(); i++) {
      if (i < ll.size()) {
        contained(path.then("[]"), ml.get(i), ll.get(i));
      } else {
        failures.add(path + "[" + i + "]: " + ml.get(i) + " is not stored");
      }
    }
    for (int i = ml.size(); i < ll.size(); i++) {
      completion(path.then("[]"), ll.get(i));
    }
  }

  /** The manifest's value {@code mv} stored as {@code lv}, completed as kube completes it. */
  private void contained(P path, Value mv, Value lv) {
    if (mv.equals(lv)) {
      return;
    }
    if (mv instanceof MapValue given && lv instanceof MapValue lm) {
      MapValue mm = requestsFromLimits(path, given);
      mm.forEach((k, v) -> {
        P p = path.then(k);
        if (v instanceof NullValue) {
          if (lm.getOrNull(k) != null && !(lm.getOrNull(k) instanceof NullValue)) {
            failures.add(p + ": null in the manifest, live " + lm.getOrNull(k));
          }
        } else if (!lm.containsKey(k)) {
          failures.add(p + ": " + v + " is not stored");
        } else {
          contained(p, v, lm.getOrNull(k));
        }
      });
      lm.forEach((k, v) -> {
        if (!mm.containsKey(k)) {
          completion(path.then(k), v);
        }
      });
      reasons.add("completed");
    } else if (mv instanceof ListValue && lv instanceof ListValue) {
      completedList(path, mv, lv);
    } else {
      scalar(path, mv, lv);
    }
  }

  /**
   * A Pod container's {@code resources} as kube defaults them: {@code SetDefaults_Pod}
   * (pkg/apis/core/v1/defaults.go) copies each limit without a request of its own to the
   * requests of the container and of the init container, for a Pod only (not a pod template).
   */
  private MapValue requestsFromLimits(P path, MapValue resources) {
    String at = path.toString();
    if (!kind.equals("Pod") || !(at.equals("spec.containers[].resources")
        || at.equals("spec.initContainers[].resources"))
        || !(resources.getOrNull("limits") instanceof MapValue limits)) {
      return resources;
    }
    MapValue requests = resources.getOrNull("requests") instanceof MapValue r ? r
        : MapValue.empty();
    MapValue defaulted = requests;
    for (Map.Entry<String, Value> limit : limits.asMap().entrySet()) {
      if (!defaulted.containsKey(limit.getKey())) {
        defaulted = defaulted.with(limit.getKey(), limit.getValue());
      }
    }
    if (defaulted.equals(requests)) {
      return resources;
    }
    reasons.add("requestsFromLimits");
    return resources.with("requests", defaulted);
  }

  private void scalar(P path, Value mv, Value lv) {
    Optional<BigDecimal> m = quantity(mv);
    Optional<BigDecimal> l = lv instanceof StringValue ? quantity(lv) : Optional.empty();
    if (m.isPresent() && l.isPresent() && m.get().compareTo(l.get()) == 0) {
      reasons.add("quantity");
    } else {
      failures.add(path + ": manifest " + mv + ", live " + lv);
    }
  }

  private static Optional<BigDecimal> quantity(Value v) {
    String text;
    if (v instanceof StringValue s) {
      text = s.value();
    } else if (v instanceof IntegerValue i) {
      text = Long.toString(i.value());
    } else if (v instanceof FloatValue f) {
      text = BigDecimal.valueOf(f.value()).toPlainString();
    } else {
      return Optional.empty();
    }
    return Quantity.parse(text).map(Quantity::value);
  }

  private void stringData(Value pv, MapValue live) {
    Value data = live.getOrNull("data");
    if (!(pv instanceof MapValue sd) || !(data instanceof MapValue dm)) {
      failures.add("stringData: " + pv + ", live data " + data);
      return;
    }
    sd.forEach((k, v) -> {
      String expected = v instanceof StringValue s ? Base64.getEncoder().encodeToString(
          s.value().getBytes(StandardCharsets.UTF_8)) : null;
      if (expected == null || !Value.of(expected).equals(dm.getOrNull(k))) {
        failures.add("stringData." + k + ": live data has " + dm.getOrNull(k));
      }
    });
    reasons.add("stringData");
  }

  /**
   * A field or element the live object has beyond the manifest: kube must add it too, by a
   * default of the CRD's schema (apiextensions' structural defaulting) or as the completions
   * table says.
   */
  private void completion(P path, Value value) {
    if (schema != null && defaulted(schemaAt(path), value)) {
      reasons.add("completed");
      return;
    }
    String pattern = path.toString();
    for (Completion c : COMPLETIONS) {
      if (c.kind().equals(kind) && c.path().equals(pattern) && matches(c.value(), value)) {
        return;
      }
    }
    failures.add(kind + " " + pattern + ": " + Json.write(value)
        + " is not a completion kube makes (realworld-kubectl-completions.tsv)");
  }

  /** The schema at {@code path}, or null when the CRD's schema does not say. */
  private MapValue schemaAt(P path) {
    Value s = schema;
    for (String segment : path.segments()) {
      if (!(s instanceof MapValue m)) {
        return null;
      }
      if (segment.equals("[]")) {
        s = m.getOrNull("items");
      } else if (Nested.map(m, "properties").containsKey(segment)) {
        s = Nested.map(m, "properties").getOrNull(segment);
      } else {
        s = m.getOrNull("additionalProperties");
      }
    }
    return s instanceof MapValue m ? m : null;
  }

  /**
   * Whether {@code value} is what structural defaulting puts where {@code at} has a default:
   * the default, with the defaults of its own fields filled in.
   */
  private static boolean defaulted(MapValue at, Value value) {
    if (at == null || !at.containsKey("default")) {
      return false;
    }
    return filled(at, at.getOrNull("default"), value);
  }

  private static boolean filled(MapValue at, Value given, Value value) {
    if (given.equals(value)) {
      return true;
    }
    if (!(given instanceof MapValue gm) || !(value instanceof MapValue vm)) {
      return false;
    }
    MapValue props = Nested.map(at, "properties");
    for (Map.Entry<String, Value> e : vm.asMap().entrySet()) {
      Value sub = props.getOrNull(e.getKey());
      MapValue subSchema = sub instanceof MapValue sm ? sm : null;
      if (gm.containsKey(e.getKey())) {
        if (subSchema == null ? !gm.getOrNull(e.getKey()).equals(e.getValue())
            : !filled(subSchema, gm.getOrNull(e.getKey()), e.getValue())) {
          return false;
        }
      } else if (!defaulted(subSchema, e.getValue())) {
        return false;
      }
    }
    return gm.asMap().keySet().stream().allMatch(vm::containsKey);
  }

  /** Equality, but for strings of the table ending in {@code *}, which match by prefix. */
  static boolean matches(Value expected, Value actual) {
    if (expected instanceof StringValue e && e.value().endsWith("*")) {
      return actual instanceof StringValue a
          && a.value().startsWith(e.value().substring(0, e.value().length() - 1));
    }
    if (expected instanceof MapValue em && actual instanceof MapValue am) {
      if (em.size() != am.size()) {
        return false;
      }
      for (Map.Entry<String, Value> entry : em.asMap().entrySet()) {
        if (!am.containsKey(entry.getKey())
            || !matches(entry.getValue(), am.getOrNull(entry.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (expected instanceof ListValue el && actual instanceof ListValue al) {
      if (el.size() != al.size()) {
        return false;
      }
      for (int i = 0; i < el.size(); i++) {
        if (!matches(el.get(i), al.get(i))) {
          return false;
        }
      }
      return true;
    }
    return expected.equals(actual);
  }
}
