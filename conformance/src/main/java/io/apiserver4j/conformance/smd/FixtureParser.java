/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance.smd;

import static io.apiserver4j.conformance.FixtureFields.bool;
import static io.apiserver4j.conformance.FixtureFields.onlyKeys;
import static io.apiserver4j.conformance.FixtureFields.string;

import io.apiserver4j.conformance.FixtureFields.FixtureFormatException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.Schema;
import java.util.Optional;
import java.util.Set;

/**
 * How a fixture case types its objects (README section 1.5): the deduced type, one root type of
 * a schema, or one type per API version (type name = apiVersion).
 */
public final class FixtureParser {
  private static final Set<String> KEYS = Set.of("deduced", "schema", "rootType", "typePerVersion");

  private final Schema schema;
  private final String rootType;

  private FixtureParser(Schema schema, String rootType) {
    this.schema = schema;
    this.rootType = rootType;
  }

  /** Reads a {@code parser} map of a fixture. */
  public static FixtureParser from(MapValue spec) {
    onlyKeys(spec, KEYS, "parser");
    if (spec.containsKey("deduced")) {
      if (!bool(spec, "deduced") || spec.size() != 1) {
        throw new FixtureFormatException("parser: 'deduced' must be true and alone");
      }
      return new FixtureParser(null, null);
    }
    Schema schema = Schema.fromSmdYaml(string(spec, "schema"));
    if (spec.containsKey("rootType") == spec.containsKey("typePerVersion")) {
      throw new FixtureFormatException("parser: exactly one of rootType and typePerVersion is needed");
    }
    if (spec.containsKey("typePerVersion")) {
      if (!bool(spec, "typePerVersion")) {
        throw new FixtureFormatException("parser: typePerVersion must be true");
      }
      return new FixtureParser(schema, null);
    }
    return new FixtureParser(schema, string(spec, "rootType"));
  }

  /** Types looked up by version in {@code schema} (after a schema change). */
  public static FixtureParser perVersion(Schema schema) {
    return new FixtureParser(schema, null);
  }

  /** The type of objects of {@code version}. */
  public ParseableType type(String version) {
    if (schema == null) {
      return ParseableType.deduced();
    }
    return schema.type(rootType != null ? rootType : version);
  }

  /** The schema; empty for the deduced parser. */
  public Optional<Schema> schema() {
    return Optional.ofNullable(schema);
  }
}
