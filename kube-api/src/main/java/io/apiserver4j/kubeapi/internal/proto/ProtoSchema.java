/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.kubeapi.internal.KubeApiData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The protobuf messages of the built-in API, loaded from the generated descriptor resource.
 * Immutable and thread-safe.
 */
public final class ProtoSchema {
  static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
  static final String OBJECT_META = META + "ObjectMeta";
  static final String LIST_META = META + "ListMeta";
  private static final String EXTENSIONS = "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.";
  private static final Set<String> SCALARS = Set.of("double", "float", "int32", "int64",
      "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64",
      "bool", "string", "bytes");

  /** Messages whose JSON form is not an object of their fields. */
  enum Special {
    NONE, TIME, MICRO_TIME, DURATION, RAW_JSON, RAW_EXTENSION, INT_OR_STRING, QUANTITY,
    STRING_LIST, PROPS_OR_ARRAY, PROPS_OR_BOOL, PROPS_OR_STRING_ARRAY
  }

  /**
   * A field. {@code json} is its JSON name; {@code ptr} a Go pointer (a zero value is kept),
   * {@code inline} a struct whose fields are its parent's in JSON, {@code noomit} a field
   * written even when zero, {@code omitzero} a struct left out when zero, {@code nojson} a
   * field JSON does not have.
   */
  record Field(int number, String name, String json, String type, boolean repeated,
      String mapKey, boolean ptr, boolean inline, boolean noomit, boolean omitzero,
      boolean nojson, boolean scalar, int index) {
    boolean map() {
      return !mapKey.isEmpty();
    }
  }

  /** A message: fields in declaration (JSON) order and in number (wire) order. */
  static final class Message {
    final String name;
    final Special special;
    /** In declaration order; {@link Field#index()} is the position here. */
    final Field[] fields;
    final Field[] wireOrder;
    /** The message type of each field (null for scalars), by {@link Field#index()}. */
    Message[] types;
    private final Field[] byNumber;
    /** Built on first use (racy but idempotent: every thread builds the same map). */
    private volatile Map<String, int[]> jsonIndex;

    Message(String name, Special special, List<Field> fields) {
      this.name = name;
      this.special = special;
      this.fields = fields.toArray(new Field[0]);
      List<Field> sorted = new ArrayList<>(fields);
      sorted.sort(Comparator.comparingInt(Field::number));
      this.wireOrder = sorted.toArray(new Field[0]);
      int max = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1).number();
      this.byNumber = new Field[max + 1];
      for (Field f : fields) {
        byNumber[f.number()] = f;
      }
    }

    /** The indexes of the fields whose JSON name is {@code json}, or null. */
    int[] byJson(String json) {
      Map<String, int[]> m = jsonIndex;
      if (m == null) {
        m = new HashMap<>();
        for (Field f : fields) {
          if (!f.inline() && !f.nojson()) {
            int[] prev = m.get(f.json());
            int[] next = prev == null ? new int[1] : Arrays.copyOf(prev, prev.length + 1);
            next[next.length - 1] = f.index();
            m.put(f.json(), next);
          }
        }
        jsonIndex = m;
      }
      return m.get(json);
    }

    Field field(int number) {
      return number < byNumber.length ? byNumber[number] : null;
    }

    Message type(Field f) {
      return types[f.index()];
    }
  }

  private static final class Holder {
    static final ProtoSchema BUILT_IN = load(ProtoDescriptorGenerator.RESOURCE);
  }

  private static final Map<KubeVersion, ProtoSchema> OLDER =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final Map<String, Message> messages;
  /** {@code group-short/version} (e.g. {@code apps/v1}, {@code core/v1}) to proto package. */
  private final Map<String, String> packages;

  private ProtoSchema(Map<String, Message> messages) {
    this.messages = messages;
    Map<String, String> p = new HashMap<>();
    for (String name : messages.keySet()) {
      String pkg = name.substring(0, name.lastIndexOf('.'));
      String[] parts = pkg.split("\\.");
      if (parts.length >= 2) {
        p.putIfAbsent(parts[parts.length - 2] + "/" + parts[parts.length - 1], pkg);
      }
    }
    this.packages = p;
  }

  /** The schema of the built-in API, loaded once. */
  public static ProtoSchema builtIn() {
    return Holder.BUILT_IN;
  }

  /** The schema of {@code version}'s built-in API, loaded once, on first use. */
  public static ProtoSchema builtIn(KubeVersion version) {
    if (version == KubeVersion.latest()) {
      return builtIn();
    }
    return OLDER.computeIfAbsent(version, v -> load(KubeApiData.directory(v)
        + "proto-descriptors.json"));
  }

  private static ProtoSchema load(String resource) {
    try (InputStream in = ProtoSchema.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is missing");
      }
      return of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ProtoSchema of(byte[] descriptors) {
    MapValue root = (MapValue) Json.read(descriptors);
    Map<String, Message> messages = new HashMap<>();
    for (Value mv : ((ListValue) root.getOrNull("messages")).items()) {
      MapValue m = (MapValue) mv;
      String name = str(m, "name");
      List<String> markers = new ArrayList<>();
      if (m.getOrNull("markers") instanceof ListValue l) {
        l.items().forEach(x -> markers.add(((StringValue) x).value()));
      }
      List<Field> fields = new ArrayList<>();
      for (Value fv : ((ListValue) m.getOrNull("fields")).items()) {
        MapValue f = (MapValue) fv;
        String fieldName = str(f, "name");
        String json = f.getOrNull("json") instanceof StringValue s ? s.value() : fieldName;
        String type = str(f, "t");
        fields.add(new Field((int) ((IntegerValue) f.getOrNull("n")).value(),
            fieldName, json, type, flag(f, "rep") || f.containsKey("key"),
            f.getOrNull("key") instanceof StringValue k ? k.value() : "", flag(f, "ptr"),
            flag(f, "inline"), flag(f, "noomit"), flag(f, "omitzero"), flag(f, "nojson"),
            SCALARS.contains(type), fields.size()));
      }
      messages.put(name, new Message(name, special(name, markers), fields));
    }
    for (Message m : messages.values()) {
      m.types = new Message[m.fields.length];
      for (Field f : m.fields) {
        if (!f.scalar()) {
          Message t = messages.get(f.type());
          if (t == null) {
            throw new IllegalStateException(m.name + "." + f.name() + " has unknown type "
                + f.type());
          }
          m.types[f.index()] = t;
        }
      }
    }
    return new ProtoSchema(Map.copyOf(messages));
  }

  private static Special special(String name, List<String> markers) {
    switch (name) {
      case META + "Time":
        return Special.TIME;
      case META + "MicroTime":
        return Special.MICRO_TIME;
      case META + "Duration":
        return Special.DURATION;
      case META + "FieldsV1":
      case EXTENSIONS + "JSON":
        return Special.RAW_JSON;
      case "k8s.io.apimachinery.pkg.runtime.RawExtension":
        return Special.RAW_EXTENSION;
      case "k8s.io.apimachinery.pkg.util.intstr.IntOrString":
        return Special.INT_OR_STRING;
      case EXTENSIONS + "JSONSchemaPropsOrArray":
        return Special.PROPS_OR_ARRAY;
      case EXTENSIONS + "JSONSchemaPropsOrBool":
        return Special.PROPS_OR_BOOL;
      case EXTENSIONS + "JSONSchemaPropsOrStringArray":
        return Special.PROPS_OR_STRING_ARRAY;
      default:
        break;
    }
    if (markers.contains("protobuf.embed=string")) {
      return Special.QUANTITY;
    }
    if (markers.contains("protobuf.nullable=true")) {
      return Special.STRING_LIST;
    }
    return Special.NONE;
  }

  private static String str(MapValue m, String key) {
    return ((StringValue) m.getOrNull(key)).value();
  }

  private static boolean flag(MapValue m, String key) {
    return m.getOrNull(key) instanceof BooleanValue b && b.value();
  }

  /** The number of messages. */
  public int size() {
    return messages.size();
  }

  Message message(String fullName) {
    Message m = messages.get(fullName);
    if (m == null) {
      throw new IllegalStateException("no protobuf message " + fullName);
    }
    return m;
  }

  /**
   * The message of a top-level kind: the message of that name in the group version's package,
   * or one of meta/v1's kinds (Status, WatchEvent, DeleteOptions, ...), which every group
   * version has.
   */
  Optional<Message> kind(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = apiVersion.substring(slash + 1);
    if (version.isEmpty() || kind.isEmpty()) {
      return Optional.empty();
    }
    String shortGroup = group.isEmpty() ? "core" : group.split("\\.")[0];
    String pkg = packages.get(shortGroup + "/" + version);
    if (pkg != null && messages.containsKey(pkg + "." + kind)) {
      return Optional.of(messages.get(pkg + "." + kind));
    }
    // meta/v1's kinds (Status, WatchEvent, APIGroup, ...) are in every group version
    return Optional.ofNullable(messages.get(META + kind));
  }
}
