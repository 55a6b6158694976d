/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * YAML codec for {@link Value}s with the scalar resolution Kubernetes clients rely on.
 *
 * <p>Plain scalars resolve as Go's yaml.v2 resolves them (YAML 1.1): {@code y, yes, on, true}
 * (and their capitalised forms) are {@code true}, {@code n, no, off, false} are {@code false},
 * {@code ~}, {@code null} and the empty scalar are null, integers follow Go's base-prefix syntax
 * ({@code 0x1F}, {@code 0o17}, {@code 017}, {@code 0b101}, underscores ignored), floats keep their
 * own type ({@code 1.0} is not {@code 1}), timestamps stay strings. Quoted and block scalars are
 * always strings. Non-string scalar keys become strings as sigs.k8s.io/yaml makes them.
 *
 * <p>Hostile input is bounded by {@link DecodeLimits}: nesting depth, document length, alias
 * count and the node count after alias expansion. Duplicate keys are rejected. Thread-safe.
 */
public final class Yaml {
  private static final String TAG_PREFIX = "tag:yaml.org,2002:";
  private static final Pattern YAML_FLOAT =
      Pattern.compile("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
  private static final Map<String, Value> RESOLVE_MAP = new HashMap<>();

  static {
    for (String s : new String[] {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On",
        "ON"}) {
      RESOLVE_MAP.put(s, BooleanValue.TRUE);
    }
    for (String s : new String[] {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off",
        "Off", "OFF"}) {
      RESOLVE_MAP.put(s, BooleanValue.FALSE);
    }
    for (String s : new String[] {"", "~", "null", "Null", "NULL"}) {
      RESOLVE_MAP.put(s, NullValue.INSTANCE);
    }
    for (String s : new String[] {".nan", ".NaN", ".NAN"}) {
      RESOLVE_MAP.put(s, new FloatValue(Double.NaN));
    }
    for (String s : new String[] {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}) {
      RESOLVE_MAP.put(s, new FloatValue(Double.POSITIVE_INFINITY));
    }
    for (String s : new String[] {"-.inf", "-.Inf", "-.INF"}) {
      RESOLVE_MAP.put(s, new FloatValue(Double.NEGATIVE_INFINITY));
    }
  }

  private Yaml() {}

  /**
   * Reads exactly one document; an empty stream is null.
   *
   * @param yaml the YAML text
   * @return the value
   * @throws DecodeException when the input is not YAML or exceeds the limits
   */
  public static Value read(String yaml) {
    return read(yaml, DecodeLimits.DEFAULT);
  }

  /**
   * Reads exactly one document; an empty stream is null.
   *
   * @param yaml the YAML text
   * @param limits the limits
   * @return the value
   * @throws DecodeException when the input is not YAML or exceeds the limits
   */
  public static Value read(String yaml, DecodeLimits limits) {
    if (yaml.length() <= limits.maxDocumentChars()) {
      Value simple = BlockYamlReader.read(yaml, limits);
      if (simple != null) {
        return simple;
      }
    }
    List<Value> docs = readAll(yaml, limits);
    if (docs.size() > 1) {
      throw new DecodeException("invalid YAML: expected one document, found " + docs.size());
    }
    return docs.isEmpty() ? NullValue.INSTANCE : docs.get(0);
  }

  /**
   * Reads every document of a stream ({@code ---} separated).
   *
   * @param yaml the YAML text
   * @return the documents, in order
   * @throws DecodeException when the input is not YAML or exceeds the limits
   */
  public static List<Value> readAll(String yaml) {
    return readAll(yaml, DecodeLimits.DEFAULT);
  }

  /**
   * Reads every document of a stream ({@code ---} separated).
   *
   * @param yaml the YAML text
   * @param limits the limits
   * @return the documents, in order
   * @throws DecodeException when the input is not YAML or exceeds the limits
   */
  public static List<Value> readAll(String yaml, DecodeLimits limits) {
    if (yaml.length() > limits.maxDocumentChars()) {
      throw new DecodeException(
          "document exceeds the maximum length of " + limits.maxDocumentChars() + " characters");
    }
    LoadSettings settings = LoadSettings.builder()
        .setCodePointLimit((int) Math.min(Integer.MAX_VALUE, limits.maxDocumentChars()))
        .build();
    try {
      return new Reader(limits).read(new Parse(settings).parseString(yaml));
    } catch (YamlEngineException e) {
      throw new DecodeException("invalid YAML: " + e.getMessage().strip(), e);
    }
  }

  /**
   * Resolves a plain (unquoted, untagged) scalar as Go's yaml.v2 does. Exposed so that callers
   * can tell whether a string would survive a YAML round trip unquoted.
   *
   * @param in the scalar's text
   * @return the resolved value: null, boolean, integer, float or string
   */
  public static Value resolvePlain(String in) {
    Value known = RESOLVE_MAP.get(in);
    if (known != null) {
      return known;
    }
    if (in.isEmpty()) {
      return NullValue.INSTANCE;
    }
    char c = in.charAt(0);
    if (c == '.') {
      Double d = GoNumbers.parseFloat(in);
      return d == null ? new StringValue(in) : new FloatValue(d);
    }
    if (c == '+' || c == '-' || (c >= '0' && c <= '9')) {
      String plain = in.indexOf('_') >= 0 ? in.replace("_", "") : in;
      Long l = GoNumbers.parseIntBase0(plain);
      if (l != null) {
        return IntegerValue.of(l);
      }
      Double u = GoNumbers.parseUintBase0(plain);
      if (u != null) {
        return new FloatValue(u);
      }
      if (YAML_FLOAT.matcher(plain).matches()) {
        Double d = GoNumbers.parseFloat(plain);
        if (d != null) {
          return new FloatValue(d);
        }
      }
      if (plain.startsWith("0b") || plain.startsWith("-0b")) {
        boolean neg = plain.charAt(0) == '-';
        Long b = GoNumbers.parseDigits(plain.substring(neg ? 3 : 2), 2, neg);
        if (b != null) {
          return IntegerValue.of(b);
        }
      }
    }
    return new StringValue(in);
  }

  /**
   * Block-style YAML; strings are quoted whenever a plain scalar would read back differently.
   *
   * @param v the value
   * @return the YAML text
   */
  public static String write(Value v) {
    StringBuilder sb = new StringBuilder();
    YamlWriter.writeDocument(sb, v);
    return sb.toString();
  }

  /** Builds values from the parser's event stream with an explicit stack (no recursion). */
  private static final class Reader {
    private final DecodeLimits limits;
    private final Map<String, Value> anchors = new HashMap<>();
    private final Map<String, Long> anchorSizes = new HashMap<>();
    private final Deque<Frame> stack = new ArrayDeque<>();
    private final List<Value> documents = new ArrayList<>();
    private int aliases;
    private Value root;
    private long rootSize;

    Reader(DecodeLimits limits) {
      this.limits = limits;
    }

    List<Value> read(Iterable<Event> events) {
      for (Event e : events) {
        switch (e.getEventId()) {
          case DocumentStart:
            anchors.clear();
            anchorSizes.clear();
            aliases = 0;
            root = null;
            break;
          case DocumentEnd:
            documents.add(root == null ? NullValue.INSTANCE : root);
            break;
          case MappingStart:
          case SequenceStart:
            if (stack.size() >= limits.maxDepth()) {
              throw error(e, "nesting depth exceeds the limit of " + limits.maxDepth());
            }
            CollectionStartEvent cs = (CollectionStartEvent) e;
            stack.push(new Frame(e.getEventId() == Event.ID.MappingStart,
                cs.getAnchor().map(a -> a.getValue()).orElse(null)));
            break;
          case MappingEnd:
          case SequenceEnd: {
            Frame f = stack.pop();
            complete(e, f.build(this, e), f.size, f.anchor, false);
            break;
          }
          case Scalar: {
            ScalarEvent s = (ScalarEvent) e;
            boolean mergeKey = s.getScalarStyle() == ScalarStyle.PLAIN && "<<".equals(s.getValue())
                && s.getTag().isEmpty();
            complete(e, scalar(s), 1, s.getAnchor().map(a -> a.getValue()).orElse(null), mergeKey);
            break;
          }
          case Alias: {
            String name = ((AliasEvent) e).getAlias().getValue();
            Value v = anchors.get(name);
            if (v == null) {
              throw error(e, "unknown alias " + name);
            }
            if (++aliases > limits.maxAliases()) {
              throw error(e, "document uses more than " + limits.maxAliases() + " aliases");
            }
            complete(e, v, anchorSizes.get(name), null, false);
            break;
          }
          default:
            break;
        }
      }
      return documents;
    }

    private void complete(Event e, Value v, long size, String anchor, boolean mergeKey) {
      if (size > limits.maxNodes()) {
        throw error(e, "document expands to more than " + limits.maxNodes() + " nodes");
      }
      if (anchor != null) {
        anchors.put(anchor, v);
        anchorSizes.put(anchor, size);
      }
      Frame parent = stack.peek();
      if (parent == null) {
        Frame.rejectNonFinite(v);
        root = v;
        rootSize = size;
        return;
      }
      parent.add(this, e, v, size, mergeKey);
    }

    private Value scalar(ScalarEvent s) {
      String value = s.getValue();
      Optional<String> tag = s.getTag();
      if (tag.isPresent() && !"!".equals(tag.get())) {
        String t = tag.get();
        if (t.startsWith(TAG_PREFIX)) {
          switch (t.substring(TAG_PREFIX.length())) {
            case "str":
              return new StringValue(value);
            case "null":
              return NullValue.INSTANCE;
            case "bool":
            case "int":
            case "float": {
              Value r = resolvePlain(value);
              if (r instanceof StringValue || r instanceof NullValue) {
                throw error(s, "cannot decode " + Json.quote(value) + " as " + t);
              }
              return r;
            }
            default:
              break;
          }
        }
      }
      if (s.getScalarStyle() != ScalarStyle.PLAIN || tag.isPresent()) {
        return new StringValue(value);
      }
      return resolvePlain(value);
    }

    DecodeException error(Event e, String message) {
      Optional<Mark> m = e.getStartMark();
      String where = m.map(k -> " at line " + (k.getLine() + 1) + ", column " + (k.getColumn() + 1))
          .orElse("");
      return new DecodeException("invalid YAML" + where + ": " + message);
    }
  }

  private static final class Frame {
    final boolean map;
    final String anchor;
    final MapValue.Builder mapBuilder;
    final ListValue.Builder listBuilder;
    final List<MapValue> merges = new ArrayList<>(0);
    String pendingKey;
    boolean pendingMerge;
    boolean haveKey;
    long size = 1;

    Frame(boolean map, String anchor) {
      this.map = map;
      this.anchor = anchor;
      this.mapBuilder = map ? MapValue.builder() : null;
      this.listBuilder = map ? null : ListValue.builder();
    }

    void add(Reader r, Event e, Value v, long childSize, boolean mergeKey) {
      if (!map) {
        rejectNonFinite(v);
        listBuilder.add(v);
        size += childSize;
        return;
      }
      if (!haveKey) {
        haveKey = true;
        pendingMerge = mergeKey;
        pendingKey = keyString(r, e, v);
        return;
      }
      haveKey = false;
      size += childSize;
      rejectNonFinite(v);
      if (pendingMerge) {
        if (v instanceof MapValue m) {
          merges.add(m);
        } else if (v instanceof ListValue l) {
          for (Value item : l.items()) {
            if (!(item instanceof MapValue m)) {
              throw r.error(e, "merge key \"<<\" needs a mapping or a list of mappings");
            }
            merges.add(m);
          }
        } else {
          throw r.error(e, "merge key \"<<\" needs a mapping or a list of mappings");
        }
        return;
      }
      if (mapBuilder.containsKey(pendingKey)) {
        throw r.error(e, "duplicate key " + Json.quote(pendingKey));
      }
      mapBuilder.putNew(pendingKey, v);
    }

    /**
     * kube converts YAML to JSON before decoding it, and JSON has no infinities or NaN: such a
     * value fails with Go's {@code encoding/json} error. (An overflowing literal such as
     * {@code 1e400} never gets here: as in yaml.v2 it resolves to a string.)
     */
    static void rejectNonFinite(Value v) {
      if (v instanceof FloatValue f && !Double.isFinite(f.value())) {
        throw new DecodeException("json: unsupported value: "
            + GoStrings.formatFloatV(f.value()));
      }
    }

    private static String keyString(Reader r, Event e, Value key) {
      if (key instanceof StringValue s) {
        return s.value();
      }
      if (key instanceof IntegerValue || key instanceof BooleanValue) {
        return key.toString();
      }
      if (key instanceof FloatValue f) {
        // sigs.k8s.io/yaml spells non-finite keys as YAML does
        double d = f.value();
        return Double.isNaN(d) ? ".nan" : d == Double.POSITIVE_INFINITY ? ".inf"
            : d == Double.NEGATIVE_INFINITY ? "-.inf" : Json.formatFloat(d);
      }
      if (key instanceof NullValue) {
        return "null";
      }
      throw r.error(e, "mapping keys must be scalars");
    }

    Value build(Reader r, Event e) {
      if (!map) {
        return listBuilder.build();
      }
      // Explicit keys win over merged ones; earlier merge sources win over later ones.
      for (MapValue m : merges) {
        for (int i = 0; i < m.size(); i++) {
          if (!mapBuilder.containsKey(m.keyAt(i))) {
            mapBuilder.put(m.keyAt(i), m.valueAt(i));
          }
        }
      }
      return mapBuilder.build();
    }
  }
}
