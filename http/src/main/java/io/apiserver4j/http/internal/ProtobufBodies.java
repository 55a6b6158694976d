package io.apiserver4j.http.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StatusErrors;
import io.apiserver4j.core.StatusException;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Request bodies in Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}),
 * read into the JSON form the pipeline takes. kubectl's typed commands send them and do not fall
 * back to JSON: {@code kubectl create namespace|configmap|secret|serviceaccount} work because of
 * this class.
 *
 * <p>The encoding is a {@code k8s\0} prefix and a {@code runtime.Unknown} envelope (type meta,
 * then the object's bytes). Objects are read with a field table per message, which covers the
 * kinds above and their metadata; any other kind is refused with 415, and a field the table does
 * not know with 400, rather than being dropped. As Go would after decoding into its structs,
 * zero values of non-pointer fields are left out, so the object is exactly what the same
 * request in JSON would produce.
 */
final class ProtobufBodies {
  static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
  private static final byte[] MAGIC = {'k', '8', 's', 0};

  private enum Type { STRING, BYTES, BOOL, INT, MESSAGE, TIME, STRING_MAP, BYTES_MAP, FIELDS }

  /**
   * One field: its number, JSON name and type; {@code repeated} for lists; {@code pointer} for
   * Go pointer fields, whose zero values are kept because they were set.
   */
  private record Field(int number, String json, Type type, boolean repeated, boolean pointer,
      String message) {}

  private static final Map<String, Map<Integer, Field>> MESSAGES = new HashMap<>();
  private static final Map<String, String> KINDS = Map.of(
      "v1/Namespace", "Namespace",
      "v1/ConfigMap", "ConfigMap",
      "v1/Secret", "Secret",
      "v1/ServiceAccount", "ServiceAccount");

  static {
    message("ObjectMeta",
        f(1, "name", Type.STRING), f(2, "generateName", Type.STRING),
        f(3, "namespace", Type.STRING), f(4, "selfLink", Type.STRING),
        f(5, "uid", Type.STRING), f(6, "resourceVersion", Type.STRING),
        f(7, "generation", Type.INT), f(8, "creationTimestamp", Type.TIME),
        pointer(9, "deletionTimestamp", Type.TIME),
        pointer(10, "deletionGracePeriodSeconds", Type.INT),
        f(11, "labels", Type.STRING_MAP), f(12, "annotations", Type.STRING_MAP),
        list(13, "ownerReferences", "OwnerReference"), strings(14, "finalizers"),
        list(17, "managedFields", "ManagedFieldsEntry"));
    message("OwnerReference",
        f(5, "apiVersion", Type.STRING), f(1, "kind", Type.STRING), f(3, "name", Type.STRING),
        f(4, "uid", Type.STRING), pointer(6, "controller", Type.BOOL),
        pointer(7, "blockOwnerDeletion", Type.BOOL));
    message("ManagedFieldsEntry",
        f(1, "manager", Type.STRING), f(2, "operation", Type.STRING),
        f(3, "apiVersion", Type.STRING), pointer(4, "time", Type.TIME),
        f(6, "fieldsType", Type.STRING), pointer(7, "fieldsV1", Type.FIELDS),
        f(8, "subresource", Type.STRING));
    message("Namespace",
        msg(1, "metadata", "ObjectMeta"), msg(2, "spec", "NamespaceSpec"),
        msg(3, "status", "NamespaceStatus"));
    message("NamespaceSpec", strings(1, "finalizers"));
    message("NamespaceStatus",
        f(1, "phase", Type.STRING), list(2, "conditions", "NamespaceCondition"));
    message("NamespaceCondition",
        f(1, "type", Type.STRING), f(2, "status", Type.STRING),
        f(4, "lastTransitionTime", Type.TIME), f(5, "reason", Type.STRING),
        f(6, "message", Type.STRING));
    message("ConfigMap",
        msg(1, "metadata", "ObjectMeta"), pointer(4, "immutable", Type.BOOL),
        f(2, "data", Type.STRING_MAP), f(3, "binaryData", Type.BYTES_MAP));
    message("Secret",
        msg(1, "metadata", "ObjectMeta"), pointer(5, "immutable", Type.BOOL),
        f(2, "data", Type.BYTES_MAP), f(4, "stringData", Type.STRING_MAP),
        f(3, "type", Type.STRING));
    message("ServiceAccount",
        msg(1, "metadata", "ObjectMeta"), list(2, "secrets", "ObjectReference"),
        list(3, "imagePullSecrets", "LocalObjectReference"),
        pointer(4, "automountServiceAccountToken", Type.BOOL));
    message("ObjectReference",
        f(1, "kind", Type.STRING), f(2, "namespace", Type.STRING), f(3, "name", Type.STRING),
        f(4, "uid", Type.STRING), f(5, "apiVersion", Type.STRING),
        f(6, "resourceVersion", Type.STRING), f(7, "fieldPath", Type.STRING));
    message("LocalObjectReference", f(1, "name", Type.STRING));
  }

  private static Field f(int n, String json, Type t) {
    return new Field(n, json, t, false, false, null);
  }

  private static Field pointer(int n, String json, Type t) {
    return new Field(n, json, t, false, true, null);
  }

  private static Field msg(int n, String json, String message) {
    return new Field(n, json, Type.MESSAGE, false, false, message);
  }

  private static Field list(int n, String json, String message) {
    return new Field(n, json, Type.MESSAGE, true, false, message);
  }

  private static Field strings(int n, String json) {
    return new Field(n, json, Type.STRING, true, false, null);
  }

  private static void message(String name, Field... fields) {
    Map<Integer, Field> m = new LinkedHashMap<>();
    for (Field f : fields) {
      m.put(f.number(), f);
    }
    MESSAGES.put(name, m);
  }

  private ProtobufBodies() {}

  /**
   * The JSON object of a protobuf request body.
   *
   * @throws io.apiserver4j.core.UnsupportedMediaTypeException for kinds this server cannot read
   *     from protobuf
   * @throws io.apiserver4j.core.BadRequestException for malformed bodies
   */
  static MapValue decode(byte[] body, List<String> jsonMediaTypes) {
    if (body.length < MAGIC.length || body[0] != MAGIC[0] || body[1] != MAGIC[1]
        || body[2] != MAGIC[2] || body[3] != MAGIC[3]) {
      throw StatusErrors.badRequest("provided object is not a Kubernetes protobuf message");
    }
    Reader envelope = new Reader(body, MAGIC.length, body.length);
    String apiVersion = "";
    String kind = "";
    byte[] raw = null;
    while (envelope.more()) {
      int tag = envelope.varintInt();
      int number = tag >>> 3;
      if (number == 1 && (tag & 7) == 2) {
        Reader meta = envelope.sub();
        while (meta.more()) {
          int t = meta.varintInt();
          if ((t >>> 3) == 1 && (t & 7) == 2) {
            apiVersion = meta.string();
          } else if ((t >>> 3) == 2 && (t & 7) == 2) {
            kind = meta.string();
          } else {
            meta.skip(t & 7);
          }
        }
      } else if (number == 2 && (tag & 7) == 2) {
        raw = envelope.bytes();
      } else {
        envelope.skip(tag & 7);
      }
    }
    String message = KINDS.get(apiVersion + "/" + kind);
    if (message == null || raw == null) {
      throw withKind(StatusErrors.unsupportedMediaType(jsonMediaTypes), apiVersion, kind);
    }
    MapValue.Builder out = MapValue.builder()
        .put("kind", Value.of(kind))
        .put("apiVersion", Value.of(apiVersion));
    MapValue object = read(new Reader(raw, 0, raw.length), message);
    for (int i = 0; i < object.size(); i++) {
      out.put(object.keyAt(i), object.valueAt(i));
    }
    return out.build();
  }

  private static StatusException withKind(StatusException e, String apiVersion, String kind) {
    return StatusException.of(e.status().withMessage(e.status().message()
        + " (this server reads protobuf only for core/v1 Namespace, ConfigMap, Secret and"
        + " ServiceAccount, not " + (apiVersion.isEmpty() ? "" : apiVersion + ", ") + "Kind="
        + kind + ")"));
  }

  private static MapValue read(Reader r, String message) {
    Map<Integer, Field> fields = MESSAGES.get(message);
    Map<String, Value> values = new LinkedHashMap<>();
    Map<String, List<Value>> lists = new LinkedHashMap<>();
    Map<String, Map<String, Value>> maps = new LinkedHashMap<>();
    while (r.more()) {
      int tag = r.varintInt();
      int number = tag >>> 3;
      Field f = fields.get(number);
      if (f == null) {
        throw StatusErrors.badRequest("protobuf field " + number + " of " + message
            + " is not supported by this server; send the object as JSON");
      }
      Value v;
      switch (f.type()) {
        case STRING:
          v = Value.of(r.string());
          break;
        case BYTES:
          v = Value.of(Base64.getEncoder().encodeToString(r.bytes()));
          break;
        case BOOL:
          v = Value.of(r.varint() != 0);
          break;
        case INT:
          v = Value.of(r.varint());
          break;
        case TIME:
          v = time(r.sub());
          break;
        case FIELDS:
          v = fieldsV1(r.sub());
          break;
        case STRING_MAP:
        case BYTES_MAP: {
          Reader entry = r.sub();
          String key = "";
          Value val = Value.of("");
          while (entry.more()) {
            int t = entry.varintInt();
            if ((t >>> 3) == 1) {
              key = entry.string();
            } else if ((t >>> 3) == 2) {
              val = f.type() == Type.STRING_MAP ? Value.of(entry.string())
                  : Value.of(Base64.getEncoder().encodeToString(entry.bytes()));
            } else {
              entry.skip(t & 7);
            }
          }
          maps.computeIfAbsent(f.json(), k -> new LinkedHashMap<>()).put(key, val);
          continue;
        }
        default:
          v = read(r.sub(), f.message());
      }
      if (f.repeated()) {
        lists.computeIfAbsent(f.json(), k -> new ArrayList<>()).add(v);
      } else {
        values.put(f.json(), v);
      }
    }
    // fields in the message's declared order, zero values of non-pointer fields left out
    MapValue.Builder out = MapValue.builder();
    for (Field f : fields.values()) {
      if (f.repeated()) {
        List<Value> l = lists.get(f.json());
        if (l != null && !l.isEmpty()) {
          out.put(f.json(), ListValue.of(l));
        }
      } else if (f.type() == Type.STRING_MAP || f.type() == Type.BYTES_MAP) {
        Map<String, Value> m = maps.get(f.json());
        if (m != null && !m.isEmpty()) {
          out.put(f.json(), MapValue.of(m));
        }
      } else {
        Value v = values.get(f.json());
        if (v != null && (f.pointer() || !isZero(v))) {
          out.put(f.json(), v);
        }
      }
    }
    return out.build();
  }

  private static boolean isZero(Value v) {
    if (v instanceof MapValue m) {
      return m.size() == 0;
    }
    return v.equals(Value.of("")) || v.equals(Value.of(0L)) || v.equals(Value.of(false))
        || v.kind() == Value.Kind.NULL;
  }

  /** A {@code metav1.Time}: seconds and nanos since the epoch, RFC 3339 in JSON. */
  private static Value time(Reader r) {
    long seconds = 0;
    while (r.more()) {
      int t = r.varintInt();
      if ((t >>> 3) == 1) {
        seconds = r.varint();
      } else {
        r.skip(t & 7);
      }
    }
    // kube's zero time encodes as an empty message and reads back as zero, i.e. unset
    if (seconds == 0) {
      return Value.nullValue();
    }
    return Value.of(DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(seconds)));
  }

  private static Value fieldsV1(Reader r) {
    while (r.more()) {
      int t = r.varintInt();
      if ((t >>> 3) == 1) {
        return io.apiserver4j.core.Json.read(r.bytes());
      }
      r.skip(t & 7);
    }
    return MapValue.empty();
  }

  /** A cursor over protobuf wire data. */
  private static final class Reader {
    private final byte[] data;
    private int pos;
    private final int end;

    Reader(byte[] data, int pos, int end) {
      this.data = data;
      this.pos = pos;
      this.end = end;
    }

    boolean more() {
      return pos < end;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw truncated();
        }
        byte b = data[pos++];
        v |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw StatusErrors.badRequest("malformed protobuf varint");
    }

    int varintInt() {
      return (int) varint();
    }

    byte[] bytes() {
      int len = varintInt();
      if (len < 0 || pos + len > end) {
        throw truncated();
      }
      byte[] out = java.util.Arrays.copyOfRange(data, pos, pos + len);
      pos += len;
      return out;
    }

    String string() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    Reader sub() {
      int len = varintInt();
      if (len < 0 || pos + len > end) {
        throw truncated();
      }
      Reader r = new Reader(data, pos, pos + len);
      pos += len;
      return r;
    }

    void skip(int wireType) {
      switch (wireType) {
        case 0:
          varint();
          break;
        case 1:
          pos += 8;
          break;
        case 2:
          bytes();
          break;
        case 5:
          pos += 4;
          break;
        default:
          throw StatusErrors.badRequest("unsupported protobuf wire type " + wireType);
      }
      if (pos > end) {
        throw truncated();
      }
    }

    private static StatusException truncated() {
      return StatusErrors.badRequest("truncated protobuf message");
    }
  }
}
