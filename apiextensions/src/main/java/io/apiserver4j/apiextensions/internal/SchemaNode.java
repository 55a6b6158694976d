/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelObjectType;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One level of a CRD version's {@code openAPIV3Schema} (apiextensions' {@code JSONSchemaProps}),
 * parsed once: the value validations, the structural parts ({@code properties}, {@code items},
 * {@code additionalProperties}) and the {@code x-kubernetes-*} extensions. Immutable.
 */
public final class SchemaNode {
  /** One {@code x-kubernetes-validations} entry. */
  public record Rule(String rule, String message, String messageExpression, String reason,
      String fieldPath, boolean optionalOldSelf) {}

  /**
   * A rule compiled once with its schema: the program, or the compiler's message; the same for
   * its messageExpression.
   */
  public record CompiledRule(Rule rule, Optional<CelProgram> program, String compileError,
      Optional<CelProgram> messageProgram, String messageCompileError) {
    /** Whether the rule refers to {@code oldSelf}: a transition rule. */
    public boolean usesOldSelf() {
      return program.map(p -> p.references("oldSelf")).orElse(false);
    }

    /** The rule's static max cost (kube's {@code CompilationResult.MaxCost}); 0 if none. */
    public long maxCost() {
      return program.map(p -> p.estimatedCost().max()).orElse(0L);
    }

    /** The messageExpression's static max cost; 0 if none. */
    public long messageMaxCost() {
      return messageProgram.map(p -> p.estimatedCost().max()).orElse(0L);
    }
  }

  final String type;
  final String format;
  final boolean nullable;
  final boolean intOrString;
  final boolean preserveUnknownFields;
  final boolean embeddedResource;
  final Map<String, SchemaNode> properties;
  final SchemaNode items;
  final SchemaNode additionalProperties;
  /** additionalProperties: false (forbidden in structural schemas, but validated as kube does). */
  final boolean additionalPropertiesForbidden;
  final List<String> required;
  final List<Value> enumValues;
  final Value defaultValue;
  final Double maximum;
  final boolean exclusiveMaximum;
  final Double minimum;
  final boolean exclusiveMinimum;
  final Double multipleOf;
  final Value multipleOfValue;
  final Value maximumValue;
  final Value minimumValue;
  final Long maxLength;
  final Long minLength;
  final String pattern;
  final Long maxItems;
  final Long minItems;
  final boolean uniqueItems;
  final Long maxProperties;
  final Long minProperties;
  final List<SchemaNode> allOf;
  final List<SchemaNode> anyOf;
  final List<SchemaNode> oneOf;
  final SchemaNode not;
  final String listType;
  final List<String> listMapKeys;
  final String mapType;
  final List<Rule> rules;
  final List<CompiledRule> compiledRules;
  /** Whether CEL sees values of this schema as they are (no escaped names, no resources). */
  final boolean celPlain;
  /** The list-map keys as CEL sees the items' fields. */
  final List<String> celListMapKeys;
  /** The CEL names of the properties (kube's escaping); empty when not expressible. */
  final Map<String, String> celNames;
  /** The CEL view of each property by its CEL name, and of items or map values. */
  private final Map<String, CelObjectType> celFields;
  private final Optional<CelObjectType> celElement;
  final MapValue raw;
  /** Whether values of this schema are resources (the root): apiVersion, kind, metadata. */
  final boolean resource;
  /** {@link #type} as kube-openapi's type list (int-or-string is both). */
  final List<String> types;
  /**
   * The path of this property under the parent path it was last asked for: the paths of an
   * object's fixed fields are the same on every validation. A benign race: the memo is an
   * immutable pair, and a lost update only costs a concatenation.
   */
  private PathMemo pathMemo;
  /** Whether this level or one below has CEL rules: validation walks only down to them. */
  final boolean rulesBelow;
  /** Whether this level or one below is a set or map list: uniqueness checks walk only there. */
  final boolean listTypesBelow;

  private SchemaNode(MapValue m, boolean resource) {
    raw = m;
    this.resource = resource;
    type = str(m, "type");
    format = str(m, "format");
    nullable = bool(m, "nullable");
    intOrString = bool(m, "x-kubernetes-int-or-string");
    preserveUnknownFields = bool(m, "x-kubernetes-preserve-unknown-fields");
    embeddedResource = bool(m, "x-kubernetes-embedded-resource");
    Map<String, SchemaNode> props = new LinkedHashMap<>();
    if (m.getOrNull("properties") instanceof MapValue p) {
      p.forEach((k, v) -> props.put(k, child(v)));
    }
    properties = Collections.unmodifiableMap(props);
    items = m.getOrNull("items") instanceof MapValue i ? new SchemaNode(i, false) : null;
    Value ap = m.getOrNull("additionalProperties");
    additionalProperties = ap instanceof MapValue a ? new SchemaNode(a, false) : null;
    additionalPropertiesForbidden = ap instanceof BooleanValue b && !b.value();
    required = strings(m.getOrNull("required"));
    enumValues = m.getOrNull("enum") instanceof ListValue l ? l.items() : List.of();
    defaultValue = m.getOrNull("default");
    maximumValue = number(m.getOrNull("maximum"));
    minimumValue = number(m.getOrNull("minimum"));
    multipleOfValue = number(m.getOrNull("multipleOf"));
    maximum = asDouble(maximumValue);
    minimum = asDouble(minimumValue);
    multipleOf = asDouble(multipleOfValue);
    exclusiveMaximum = bool(m, "exclusiveMaximum");
    exclusiveMinimum = bool(m, "exclusiveMinimum");
    maxLength = integer(m.getOrNull("maxLength"));
    minLength = integer(m.getOrNull("minLength"));
    pattern = m.getOrNull("pattern") instanceof StringValue s ? s.value() : null;
    maxItems = integer(m.getOrNull("maxItems"));
    minItems = integer(m.getOrNull("minItems"));
    uniqueItems = bool(m, "uniqueItems");
    maxProperties = integer(m.getOrNull("maxProperties"));
    minProperties = integer(m.getOrNull("minProperties"));
    allOf = nodes(m.getOrNull("allOf"));
    anyOf = nodes(m.getOrNull("anyOf"));
    oneOf = nodes(m.getOrNull("oneOf"));
    not = m.getOrNull("not") instanceof MapValue n ? new SchemaNode(n, false) : null;
    listType = str(m, "x-kubernetes-list-type");
    listMapKeys = strings(m.getOrNull("x-kubernetes-list-map-keys"));
    mapType = str(m, "x-kubernetes-map-type");
    List<Rule> rs = new ArrayList<>();
    if (m.getOrNull("x-kubernetes-validations") instanceof ListValue l) {
      for (Value v : l.items()) {
        if (v instanceof MapValue r) {
          rs.add(new Rule(str(r, "rule"), str(r, "message"), str(r, "messageExpression"),
              str(r, "reason"), str(r, "fieldPath"), bool(r, "optionalOldSelf")));
        }
      }
    }
    rules = List.copyOf(rs);
    Map<String, String> names = new LinkedHashMap<>();
    boolean plain = !embeddedResource;
    for (Map.Entry<String, SchemaNode> p : properties.entrySet()) {
      String escaped = CelView.escape(p.getKey());
      names.put(p.getKey(), escaped);
      // a null in a nullable field is absent to CEL, as in kube: such objects are viewed
      plain &= escaped.equals(p.getKey()) && p.getValue().celPlain && !p.getValue().nullable;
    }
    plain &= items == null || items.celPlain;
    plain &= additionalProperties == null || additionalProperties.celPlain;
    celNames = Collections.unmodifiableMap(names);
    List<String> keys = new ArrayList<>();
    for (String k : listMapKeys) {
      // a name CEL cannot spell stays as it is in the view, as kube's escapeKeyProps keeps it
      String escaped = CelView.escape(k);
      keys.add(escaped.isEmpty() ? k : escaped);
    }
    celListMapKeys = List.copyOf(keys);
    celPlain = plain;
    Map<String, CelObjectType> fields = new java.util.HashMap<>();
    for (Map.Entry<String, String> e : names.entrySet()) {
      SchemaNode child = properties.get(e.getKey());
      fields.put(e.getValue(), new CelType(child, child.embeddedResource));
    }
    celFields = fields;
    SchemaNode element = type.equals("array") ? items
        : properties.isEmpty() ? additionalProperties : null;
    celElement = element == null ? Optional.empty()
        : Optional.of(new CelType(element, element.embeddedResource));
    List<CompiledRule> compiled = new ArrayList<>();
    CelObjectType selfType = new CelType(this, resource || embeddedResource);
    for (Rule r : rules) {
      compiled.add(compile(r, selfType));
    }
    compiledRules = List.copyOf(compiled);
    boolean rulesHere = !rules.isEmpty();
    boolean listsHere = listType.equals("set") || listType.equals("map");
    for (SchemaNode child : structuralChildren()) {
      rulesHere |= child.rulesBelow;
      listsHere |= child.listTypesBelow;
    }
    // kube evaluates the rules of allOf's value validations too, on the same values
    for (SchemaNode a : allOf) {
      rulesHere |= a.rulesBelow;
    }
    rulesBelow = rulesHere;
    listTypesBelow = listsHere;
    types = intOrString ? List.of("integer", "string")
        : type.isEmpty() ? List.of() : List.of(type);
  }

  private record PathMemo(String parent, String path) {}

  /** The path of this node as property {@code key} of a value at {@code parent}. */
  String pathUnder(String parent, String key) {
    PathMemo m = pathMemo;
    if (m != null && m.parent() == parent) {
      return m.path();
    }
    String path = SchemaValidation.child(parent, key);
    pathMemo = new PathMemo(parent, path);
    return path;
  }

  private List<SchemaNode> structuralChildren() {
    List<SchemaNode> out = new ArrayList<>(properties.values());
    if (items != null) {
      out.add(items);
    }
    if (additionalProperties != null) {
      out.add(additionalProperties);
    }
    return out;
  }

  /**
   * The metadata schema of a resource as kube's {@code WithTypeAndObjectMeta} keeps it: only
   * when kind and apiVersion are declared strings and metadata declares name and generateName
   * as strings; null when kube replaces it by name and generateName alone.
   */
  SchemaNode declaredResourceMeta() {
    SchemaNode kind = properties.get("kind");
    SchemaNode apiVersion = properties.get("apiVersion");
    SchemaNode meta = properties.get("metadata");
    if (kind == null || !kind.type.equals("string") || apiVersion == null
        || !apiVersion.type.equals("string") || meta == null || !meta.type.equals("object")) {
      return null;
    }
    SchemaNode name = meta.properties.get("name");
    SchemaNode generateName = meta.properties.get("generateName");
    return name != null && name.type.equals("string") && generateName != null
        && generateName.type.equals("string") ? meta : null;
  }

  /** kube's largest request (celconfig.MaxRequestSizeBytes), which bounds unbounded sizes. */
  static final long MAX_REQUEST_SIZE = 3 * 1024 * 1024;

  /**
   * The schema as CEL sees it: field selection, and the kind and size bound kube's
   * {@code SchemaDeclType} gives it for cost estimation.
   */
  private record CelType(SchemaNode node, boolean resource) implements CelObjectType {
    /** A string kube adds to resources (apiVersion, kind, metadata.name, generateName). */
    private static final CelObjectType RESOURCE_STRING = new CelObjectType() {
      @Override
      public Optional<CelObjectType> field(String name) {
        return Optional.of(CelObjectType.dynamic());
      }

      @Override
      public boolean open() {
        return true;
      }

      @Override
      public ValueKind kind() {
        return ValueKind.STRING;
      }

      @Override
      public OptionalLong maxElements() {
        return OptionalLong.of(MAX_REQUEST_SIZE - 2);
      }
    };

    private static final CelObjectType RESOURCE_META = new CelObjectType() {
      @Override
      public Optional<CelObjectType> field(String name) {
        return name.equals("name") || name.equals("generateName")
            ? Optional.of(RESOURCE_STRING) : Optional.empty();
      }

      @Override
      public boolean open() {
        return false;
      }

      @Override
      public ValueKind kind() {
        return ValueKind.OBJECT;
      }

      @Override
      public OptionalLong maxElements() {
        return OptionalLong.of(0);
      }
    };

    @Override
    public Optional<CelObjectType> field(String name) {
      if (resource && (name.equals("apiVersion") || name.equals("kind"))) {
        return Optional.of(RESOURCE_STRING);
      }
      if (resource && name.equals("metadata")) {
        SchemaNode declared = node.declaredResourceMeta();
        if (declared == null) {
          return Optional.of(RESOURCE_META);
        }
        CelObjectType meta = new CelType(declared, false);
        return Optional.of(new CelObjectType() {
          @Override
          public Optional<CelObjectType> field(String f) {
            return f.equals("name") || f.equals("generateName") ? Optional.of(RESOURCE_STRING)
                : meta.field(f);
          }

          @Override
          public boolean open() {
            return false;
          }

          @Override
          public ValueKind kind() {
            return ValueKind.OBJECT;
          }
        });
      }
      CelObjectType field = node.celFields.get(name);
      if (field == null && CelView.RESERVED.contains(name)) {
        // kube's type provider recognizes CEL keywords as field names (namespace, if, ...)
        field = node.celFields.get("__" + name + "__");
      }
      // kube's SchemaDeclType leaves out fields it cannot type (no type, unless int-or-string)
      return Optional.ofNullable(field)
          .filter(f -> !(f instanceof CelType t) || t.node().hasDeclType());
    }

    @Override
    public Optional<CelObjectType> element() {
      return node.celElement;
    }

    @Override
    public Scalar scalar() {
      if (node.type.equals("number")) {
        return Scalar.DOUBLE;
      }
      if (!node.type.equals("string")) {
        return Scalar.PLAIN;
      }
      switch (node.format) {
        case "date", "date-time":
          return Scalar.TIMESTAMP;
        case "duration":
          return Scalar.DURATION;
        case "byte":
          return Scalar.BYTES;
        default:
          return Scalar.PLAIN;
      }
    }

    @Override
    public boolean open() {
      // Only objects with declared properties are closed; maps, untyped and preserved values,
      // scalars and lists are left to the run time.
      // Objects are closed, with or without declared properties, as kube declares them (even
      // with x-kubernetes-preserve-unknown-fields); maps, untyped values, scalars and lists are
      // left to the run time.
      return !node.type.equals("object") || node.additionalProperties != null
          || node.intOrString;
    }

    @Override
    public ValueKind kind() {
      return node.celKind();
    }

    @Override
    public String schemaType() {
      return node.type;
    }

    @Override
    public boolean intOrString() {
      return node.intOrString;
    }

    @Override
    public boolean nullable() {
      return node.nullable;
    }

    @Override
    public ListType listType() {
      return switch (node.listType) {
        case "set" -> ListType.SET;
        case "map" -> ListType.MAP;
        default -> ListType.ATOMIC;
      };
    }

    @Override
    public List<String> listMapKeys() {
      return node.celListMapKeys;
    }

    @Override
    public OptionalLong maxElements() {
      return node.celKind() == ValueKind.DYN && !node.intOrString ? OptionalLong.empty()
          : OptionalLong.of(node.maxElements());
    }
  }

  /** The CEL kind kube's {@code SchemaDeclType} gives this schema; DYN where it gives none. */
  CelObjectType.ValueKind celKind() {
    if (intOrString) {
      return CelObjectType.ValueKind.DYN;
    }
    switch (type) {
      case "array":
        return items != null && items.hasDeclType() ? CelObjectType.ValueKind.LIST
            : CelObjectType.ValueKind.DYN;
      case "object":
        if (additionalProperties != null) {
          return additionalProperties.hasDeclType() ? CelObjectType.ValueKind.MAP
              : CelObjectType.ValueKind.DYN;
        }
        return CelObjectType.ValueKind.OBJECT;
      case "string":
        return switch (format) {
          case "byte" -> CelObjectType.ValueKind.BYTES;
          case "duration" -> CelObjectType.ValueKind.DURATION;
          case "date", "date-time" -> CelObjectType.ValueKind.TIMESTAMP;
          default -> CelObjectType.ValueKind.STRING;
        };
      case "boolean":
        return CelObjectType.ValueKind.BOOL;
      case "number":
        return CelObjectType.ValueKind.DOUBLE;
      case "integer":
        return CelObjectType.ValueKind.INT;
      default:
        return CelObjectType.ValueKind.DYN;
    }
  }

  /**
   * kube's {@code DeclType.MaxElements}: declared bounds, else what fits in the largest request
   * ({@code estimateMaxStringLengthPerRequest}, {@code estimateMaxArrayItemsFromMinSize},
   * {@code estimateMaxAdditionalPropertiesFromMinSize}); strings count 4 bytes a character.
   */
  long maxElements() {
    long request = MAX_REQUEST_SIZE - 2;
    if (intOrString) {
      return maxLength != null ? Math.max(0, maxLength) * 4 : request;
    }
    switch (type) {
      case "array":
        return maxItems != null ? Math.max(0, maxItems)
            : request / (items == null ? 2 : items.minSerializedSize() + 1);
      case "object":
        if (additionalProperties != null) {
          return maxProperties != null ? Math.max(0, maxProperties)
              : request / (additionalProperties.minSerializedSize() + 6);
        }
        return 0;
      case "string":
        switch (format) {
          case "byte":
            return maxLength != null ? Math.max(0, maxLength) : request;
          case "duration", "date-time":
            return 32;
          case "date":
            return 12;
          default:
            if (maxLength != null) {
              return Math.max(0, maxLength) * 4;
            }
            if (!enumValues.isEmpty()) {
              long longest = 0;
              for (Value v : enumValues) {
                if (v instanceof StringValue sv) {
                  longest = Math.max(longest,
                      sv.value().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
                }
              }
              return longest;
            }
            return request;
        }
      default:
        return 0;
    }
  }

  /** kube's {@code MinSerializedSize}: the fewest bytes a value of this schema takes in JSON. */
  long minSerializedSize() {
    if (intOrString) {
      return 1;
    }
    switch (type) {
      case "object":
        if (additionalProperties != null) {
          return 2;
        }
        long size = 2;
        for (String name : new java.util.LinkedHashSet<>(required)) {
          SchemaNode p = properties.get(name);
          if (p != null && p.defaultValue == null && p.hasDeclType()) {
            size += name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                + p.minSerializedSize() + 4;
          }
        }
        return size;
      case "string":
        return switch (format) {
          case "duration" -> 3;
          case "date" -> 12;
          case "date-time" -> 21;
          default -> 2;
        };
      case "boolean":
        return 4;
      default:
        return type.equals("array") ? 2 : 1;
    }
  }

  /** Whether kube's {@code SchemaDeclType} gives this schema a type. */
  private boolean hasDeclType() {
    if (intOrString) {
      return true;
    }
    return switch (type) {
      case "array" -> items != null && items.hasDeclType();
      case "object" -> additionalProperties == null || additionalProperties.hasDeclType();
      case "string", "boolean", "number", "integer" -> true;
      default -> false;
    };
  }

  /**
   * kube's unbounded-cardinality multiplier for rules on this schema
   * ({@code maxCardinality(declType.MinSerializedSize)}): how many values of it fit in a request.
   */
  long maxCardinality() {
    return MAX_REQUEST_SIZE / (minSerializedSize() + 1);
  }

  private static CompiledRule compile(Rule r, CelObjectType selfType) {
    List<String> vars = r.optionalOldSelf() ? List.of("self") : List.of("self", "oldSelf");
    List<String> optionals = r.optionalOldSelf() ? List.of("oldSelf") : List.of();
    Optional<CelProgram> program = Optional.empty();
    String error = "";
    Map<String, CelObjectType> types = Map.of("self", selfType, "oldSelf", selfType);
    if (!r.rule().isBlank()) {
      try {
        CelProgram p = CelProgram.compile(r.rule(), vars, optionals, types);
        if (p.mayEvaluateTo("bool")) {
          program = Optional.of(p);
        } else {
          error = "cel expression must evaluate to a bool";
        }
      } catch (CelException e) {
        // kube: a program that cannot be built (a constant pattern of the regex library) is
        // reported as such, everything else as a failed compilation
        error = e.getMessage().startsWith("program instantiation failed: ") ? e.getMessage()
            : "compilation failed: " + e.getMessage();
      }
    }
    Optional<CelProgram> message = Optional.empty();
    String messageError = "";
    if (!r.messageExpression().isBlank()) {
      try {
        CelProgram p = CelProgram.compile(r.messageExpression(), vars, optionals, types);
        if (p.mayEvaluateTo("string")) {
          message = Optional.of(p);
        } else {
          messageError = "messageExpression must evaluate to a string";
        }
      } catch (CelException e) {
        messageError = "messageExpression compilation failed: " + e.getMessage();
      }
    }
    return new CompiledRule(r, program, error, message, messageError);
  }

  private volatile Boolean costTracked;

  /**
   * Whether validating a value of this schema must count runtime costs: some expression's
   * estimated cost exceeds the per-call limit, or all of them together, times how often they may
   * run on one object, exceed the per-object budget. Otherwise no evaluation can reach a limit
   * and the common case runs without tracking.
   */
  boolean costTracked() {
    Boolean t = costTracked;
    if (t == null) {
      long[] total = {0};
      t = exceedsPerCall(this, 1, total)
          || total[0] > CelCostLimits.RUNTIME_CEL_COST_BUDGET;
      costTracked = t;
    }
    return t;
  }

  private static boolean exceedsPerCall(SchemaNode s, long cardinality, long[] total) {
    for (CompiledRule c : s.compiledRules) {
      long max = c.maxCost();
      long message = c.messageMaxCost();
      if (max > CelCostLimits.PER_CALL_LIMIT || message > CelCostLimits.PER_CALL_LIMIT) {
        return true;
      }
      long cost = CelCostLimits.expressionCost(max + message, s, cardinality);
      total[0] = Long.MAX_VALUE - total[0] < cost ? Long.MAX_VALUE : total[0] + cost;
    }
    long child = CelCostLimits.childCardinality(s, cardinality);
    for (SchemaNode p : s.properties.values()) {
      if (exceedsPerCall(p, child, total)) {
        return true;
      }
    }
    return (s.items != null && exceedsPerCall(s.items, child, total))
        || (s.additionalProperties != null && exceedsPerCall(s.additionalProperties, child,
            total));
  }

  public List<CompiledRule> compiledRules() {
    return compiledRules;
  }

  /** Parses a schema; anything but a map is the empty schema (which allows everything). */
  public static SchemaNode parse(Value schema) {
    return new SchemaNode(schema instanceof MapValue m ? m : MapValue.empty(), true);
  }

  /**
   * Parses the schema of a value below a resource's root (kube's {@code isResourceRoot} false):
   * its {@code apiVersion}, {@code kind} and {@code metadata} are plain fields.
   */
  static SchemaNode parseBelowRoot(Value schema) {
    return new SchemaNode(schema instanceof MapValue m ? m : MapValue.empty(), false);
  }

  // CRD schemas are parsed (and their rules compiled) when a CRD is validated, when its
  // definitions are built and on each status write of the CRD: equal schemas share one parse.
  private static final int CACHE_SIZE = 64;
  private static final Map<Value, SchemaNode> CACHE = Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Value, SchemaNode> eldest) {
          return size() > CACHE_SIZE;
        }
      });

  /** Like {@link #parse}, sharing the result with earlier parses of an equal schema. */
  public static SchemaNode parseShared(Value schema) {
    SchemaNode cached = CACHE.get(schema);
    if (cached == null) {
      cached = parse(schema);
      CACHE.put(schema, cached);
    }
    return cached;
  }

  /** The schema as written in the CRD. */
  public MapValue raw() {
    return raw;
  }

  public String type() {
    return type;
  }

  public Optional<SchemaNode> property(String name) {
    return Optional.ofNullable(properties.get(name));
  }

  public Map<String, SchemaNode> properties() {
    return properties;
  }

  public Optional<SchemaNode> items() {
    return Optional.ofNullable(items);
  }

  public Optional<SchemaNode> additionalProperties() {
    return Optional.ofNullable(additionalProperties);
  }

  public List<Rule> rules() {
    return rules;
  }

  public boolean preserveUnknownFields() {
    return preserveUnknownFields;
  }

  public boolean embeddedResource() {
    return embeddedResource;
  }

  public boolean intOrString() {
    return intOrString;
  }

  public String listType() {
    return listType;
  }

  public List<String> listMapKeys() {
    return listMapKeys;
  }

  public Optional<Value> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  public String format() {
    return format;
  }

  /** The schema of the child {@code key} of an object: a property or additionalProperties. */
  Optional<SchemaNode> child(String key) {
    SchemaNode p = properties.get(key);
    return Optional.ofNullable(p != null ? p : additionalProperties);
  }

  private static SchemaNode child(Value v) {
    return new SchemaNode(v instanceof MapValue m ? m : MapValue.empty(), false);
  }

  private static List<SchemaNode> nodes(Value v) {
    if (!(v instanceof ListValue l)) {
      return List.of();
    }
    List<SchemaNode> out = new ArrayList<>();
    for (Value item : l.items()) {
      out.add(child(item));
    }
    return List.copyOf(out);
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  private static boolean bool(MapValue m, String key) {
    return m.getOrNull(key) instanceof BooleanValue b && b.value();
  }

  private static List<String> strings(Value v) {
    if (!(v instanceof ListValue l)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (Value item : l.items()) {
      if (item instanceof StringValue s) {
        out.add(s.value());
      }
    }
    return List.copyOf(out);
  }

  private static Value number(Value v) {
    return v instanceof IntegerValue || v instanceof FloatValue ? v : null;
  }

  private static Double asDouble(Value v) {
    if (v instanceof IntegerValue i) {
      return (double) i.value();
    }
    if (v instanceof FloatValue f) {
      return f.value();
    }
    return null;
  }

  private static Long integer(Value v) {
    if (v instanceof IntegerValue i) {
      return i.value();
    }
    if (v instanceof FloatValue f && f.value() == Math.rint(f.value())) {
      return (long) f.value();
    }
    return null;
  }
}
