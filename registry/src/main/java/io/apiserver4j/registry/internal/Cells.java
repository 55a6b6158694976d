/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.apiserver.TablePrinter.Column;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoDurations;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import io.apiserver4j.kubeapi.KubeApi;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the built-in kinds' table printers share: null-tolerant nested reads with Go's zero
 * values for absent fields, kube's formatting of labels, selectors and ages, the columns every
 * printer of {@code pkg/printers/internalversion} repeats, and the Event printer that the core
 * and events.k8s.io Events share. Stateless and thread-safe.
 */
public final class Cells {
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  private static final String CORE = "io.k8s.api.core.v1.";

  /** kube's {@code Name} column: the object's name. */
  public static final Column NAME = new Column("Name", "string", "name",
      doc(META + "ObjectMeta", "name"), 0);
  /** kube's {@code Age} column: the time since the object's creation. */
  public static final Column AGE = col("Age", "string", doc(META + "ObjectMeta",
      "creationTimestamp"));
  /** The wide {@code Containers} column of the workloads: their template's container names. */
  public static final Column CONTAINERS = wide("Containers", "string",
      "Names of each container in the template.");
  /** The wide {@code Images} column of the workloads: their template's container images. */
  public static final Column IMAGES = wide("Images", "string",
      "Images referenced by each container in the template.");

  private Cells() {}

  /** Kube's documentation of {@code field} of OpenAPI type {@code type}, or empty. */
  public static String doc(String type, String field) {
    Value d = at(KubeApi.openApiDefinitions(), type, "properties", field, "description");
    return d instanceof StringValue s ? s.value() : "";
  }

  /** A column shown by default (priority 0). */
  public static Column col(String name, String type, String description) {
    return new Column(name, type, "", description, 0);
  }

  /** A column shown with {@code -o wide} only (priority 1). */
  public static Column wide(String name, String type, String description) {
    return new Column(name, type, "", description, 1);
  }

  /** The value at {@code path}, or null when a step is absent or not a map. */
  public static Value at(Value v, String... path) {
    Value cur = v;
    for (String p : path) {
      if (!(cur instanceof MapValue m)) {
        return null;
      }
      cur = m.getOrNull(p);
    }
    return cur;
  }

  /** The string (or integer, as text) at {@code path}; empty when absent. */
  public static String str(Value v, String... path) {
    Value x = at(v, path);
    if (x instanceof StringValue s) {
      return s.value();
    }
    if (x instanceof IntegerValue i) {
      return Long.toString(i.value());
    }
    return "";
  }

  /** The integer (a float truncated) at {@code path}; 0 when absent. */
  public static long integer(Value v, String... path) {
    Value x = at(v, path);
    if (x instanceof IntegerValue i) {
      return i.value();
    }
    return x instanceof FloatValue f ? (long) f.value() : 0;
  }

  /** Whether {@code path} holds a value other than null. */
  public static boolean has(Value v, String... path) {
    Value x = at(v, path);
    return x != null && !x.isNull();
  }

  /** Whether {@code path} holds {@code true}. */
  public static boolean bool(Value v, String... path) {
    return at(v, path) instanceof BooleanValue b && b.value();
  }

  /** The items of the list at {@code path}; empty when absent. */
  public static List<Value> list(Value v, String... path) {
    return at(v, path) instanceof ListValue l ? l.items() : List.of();
  }

  /** The map at {@code path}; empty when absent. */
  public static MapValue map(Value v, String... path) {
    return at(v, path) instanceof MapValue m ? m : MapValue.empty();
  }

  /** {@code <none>} for an empty string. */
  public static String orNone(String s) {
    return s.isEmpty() ? "<none>" : s;
  }

  /** A string map as {@code k=v,k2=v2} sorted by key ({@code labels.FormatLabels}). */
  public static String formatLabels(MapValue m) {
    if (m.isEmpty()) {
      return "<none>";
    }
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      keys.add(m.keyAt(i));
    }
    keys.sort(Values::compareStrings);
    List<String> out = new ArrayList<>();
    for (String k : keys) {
      out.add(k + "=" + str(m, k));
    }
    return String.join(",", out);
  }

  /** A {@code LabelSelector} as {@code metav1.FormatLabelSelector} writes it. */
  public static String formatLabelSelector(Value selector) {
    if (!(selector instanceof MapValue m)) {
      return "<none>";
    }
    List<String> parts = new ArrayList<>();
    MapValue labels = map(m, "matchLabels");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      keys.add(labels.keyAt(i));
    }
    keys.sort(Values::compareStrings);
    for (String k : keys) {
      parts.add(k + "=" + str(labels, k));
    }
    for (Value e : list(m, "matchExpressions")) {
      String key = str(e, "key");
      List<String> values = new ArrayList<>();
      for (Value x : list(e, "values")) {
        values.add(x instanceof StringValue s ? s.value() : "");
      }
      switch (str(e, "operator")) {
        case "In":
          parts.add(key + " in (" + String.join(",", values) + ")");
          break;
        case "NotIn":
          parts.add(key + " notin (" + String.join(",", values) + ")");
          break;
        case "Exists":
          parts.add(key);
          break;
        case "DoesNotExist":
          parts.add("!" + key);
          break;
        default:
          parts.add(key + " " + str(e, "operator") + " " + values);
      }
    }
    String s = String.join(",", parts);
    return s.isEmpty() ? "<none>" : s;
  }

  /** The age of an object: the human duration since its creation. */
  public static String age(MapValue o, Instant now) {
    return since(str(o, "metadata", "creationTimestamp"), now);
  }

  /** The human duration from {@code timestamp} (RFC 3339) to {@code now}. */
  public static String since(String timestamp, Instant now) {
    if (timestamp.isEmpty()) {
      return "<unknown>";
    }
    try {
      return GoDurations.human(Duration.between(Instant.parse(timestamp), now));
    } catch (DateTimeParseException e) {
      return "<invalid>";
    }
  }

  /** Cells from Java values; see {@link TablePrinter#row}. */
  public static List<Value> row(Object... cells) {
    return TablePrinter.row(cells);
  }

  /** {@code dflt} for an empty string. */
  public static String orDefault(String s, String dflt) {
    return s.isEmpty() ? dflt : s;
  }

  /** The object's name. */
  public static String name(MapValue o) {
    return str(o, "metadata", "name");
  }

  /** A workload's {@code spec.replicas}; 1 when absent, as the internal types default it. */
  public static long replicas(MapValue o) {
    return has(o, "spec", "replicas") ? integer(o, "spec", "replicas") : 1;
  }

  /** The names of a workload template's containers, comma-separated. */
  public static String containers(MapValue o) {
    return join(list(o, "spec", "template", "spec", "containers"), "name");
  }

  /** The images of a workload template's containers, comma-separated. */
  public static String images(MapValue o) {
    return join(list(o, "spec", "template", "spec", "containers"), "image");
  }

  /** The string {@code field} of each item, comma-separated. */
  public static String join(List<Value> items, String field) {
    List<String> out = new ArrayList<>();
    for (Value c : items) {
      out.add(str(c, field));
    }
    return String.join(",", out);
  }

  /** String items, comma-separated (others as empty strings). */
  public static String strings(List<Value> items) {
    List<String> out = new ArrayList<>();
    for (Value v : items) {
      out.add(v instanceof StringValue s ? s.value() : "");
    }
    return String.join(",", out);
  }

  /** The columns of kube's Event printer (core/v1 and events.k8s.io/v1 Events alike). */
  public static List<Column> eventColumns() {
    return List.of(
        col("Last Seen", "string", doc(CORE + "Event", "lastTimestamp")),
        col("Type", "string", doc(CORE + "Event", "type")),
        col("Reason", "string", doc(CORE + "Event", "reason")),
        col("Object", "string", doc(CORE + "Event", "involvedObject")),
        wide("Subobject", "string", doc(CORE + "ObjectReference", "fieldPath")),
        wide("Source", "string", doc(CORE + "Event", "source")),
        col("Message", "string", doc(CORE + "Event", "message")),
        wide("First Seen", "string", doc(CORE + "Event", "firstTimestamp")),
        wide("Count", "string", doc(CORE + "Event", "count")),
        new Column("Name", "string", "name", NAME.description(), 1));
  }

  /** The cells of kube's Event printer, for a core/v1 Event (kube's {@code printEvent}). */
  public static List<Value> eventCells(MapValue o, Instant now) {
    String first = str(o, "firstTimestamp");
    String last = str(o, "lastTimestamp");
    String eventTime = str(o, "eventTime");
    if (last.isEmpty()) {
      last = eventTime.isEmpty() ? str(o, "metadata", "creationTimestamp") : eventTime;
    }
    if (first.isEmpty()) {
      first = eventTime.isEmpty() ? last : eventTime;
    }
    long count = integer(o, "count");
    if (has(o, "series")) {
      count = integer(o, "series", "count");
      last = str(o, "series", "lastObservedTime");
    }
    String source = str(o, "source", "component");
    if (source.isEmpty()) {
      source = str(o, "reportingComponent");
    }
    if (!str(o, "source", "host").isEmpty()) {
      source = source + ", " + str(o, "source", "host");
    }
    return row(since(last, now), str(o, "type"), str(o, "reason"),
        str(o, "involvedObject", "kind").toLowerCase(Locale.ROOT) + "/"
            + str(o, "involvedObject", "name"),
        str(o, "involvedObject", "fieldPath"), source, str(o, "message"), since(first, now),
        Long.toString(Math.max(count, 1)), name(o));
  }

  /** {@code s}, or kube's {@code <unset>} when empty. */
  public static String orUnset(String s) {
    return s.isEmpty() ? "<unset>" : s;
  }

  /** A volume's or claim's phase, {@code Terminating} once it is being deleted. */
  public static String phase(MapValue o) {
    return has(o, "metadata", "deletionTimestamp") ? "Terminating" : str(o, "status", "phase");
  }

  /** The storage class of a volume or claim: the beta annotation wins over the field. */
  public static String storageClass(MapValue o) {
    String beta = str(o, "metadata", "annotations", "volume.beta.kubernetes.io/storage-class");
    return beta.isEmpty() ? str(o, "spec", "storageClassName") : beta;
  }

  /** Access modes in kube's short forms ({@code RWO,ROX,RWX,RWOP}), in kube's order. */
  public static String accessModes(List<Value> modes) {
    List<String> out = new ArrayList<>();
    String[][] known = {{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"},
        {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}};
    for (String[] k : known) {
      if (modes.contains(Value.of(k[0]))) {
        out.add(k[1]);
      }
    }
    return String.join(",", out);
  }

  /**
   * Whether a class (StorageClass, VolumeAttributesClass) is annotated as its kind's default,
   * by the GA or the beta annotation.
   */
  public static boolean isDefaultClass(MapValue o) {
    MapValue a = map(o, "metadata", "annotations");
    return str(a, "storageclass.kubernetes.io/is-default-class").equals("true")
        || str(a, "storageclass.beta.kubernetes.io/is-default-class").equals("true")
        || str(a, "resource.kubernetes.io/is-default-class").equals("true");
  }

  /**
   * kube's rbac {@code SubjectsStrings}: the names of a binding's User subjects, of its Group
   * subjects and its ServiceAccounts as {@code namespace/name}, each joined by {@code ", "}.
   */
  public static List<String> subjectsStrings(MapValue binding) {
    List<String> users = new ArrayList<>();
    List<String> groups = new ArrayList<>();
    List<String> sas = new ArrayList<>();
    for (Value s : list(binding, "subjects")) {
      switch (str(s, "kind")) {
        case "User":
          users.add(str(s, "name"));
          break;
        case "Group":
          groups.add(str(s, "name"));
          break;
        case "ServiceAccount":
          sas.add(str(s, "namespace") + "/" + str(s, "name"));
          break;
        default:
          break;
      }
    }
    return List.of(String.join(", ", users), String.join(", ", groups), String.join(", ", sas));
  }

  /**
   * An admission policy's {@code spec.paramKind} as {@code apiVersion/kind}, or
   * {@code <unset>}.
   */
  public static String paramKind(MapValue policy) {
    Value pk = at(policy, "spec", "paramKind");
    return pk == null || pk.isNull() ? "<unset>"
        : str(pk, "apiVersion") + "/" + str(pk, "kind");
  }

  /**
   * An admission policy binding's {@code spec.paramRef} as {@code namespace/name} ({@code *} for
   * any namespace, the selector for no name), or {@code <unset>}.
   */
  public static String paramRef(MapValue binding) {
    Value ref = at(binding, "spec", "paramRef");
    if (ref == null || ref.isNull()) {
      return "<unset>";
    }
    String ns = str(ref, "namespace");
    String n = str(ref, "name");
    if (n.isEmpty()) {
      n = formatLabelSelector(at(ref, "selector"));
    }
    return ns.isEmpty() ? "*/" + n : ns + "/" + n;
  }
}
