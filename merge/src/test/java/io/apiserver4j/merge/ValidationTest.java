/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Yaml;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ValidationTest {
  private static final Schema SCHEMA = Schema.fromSmdYaml("""
      types:
      - name: root
        map:
          fields:
          - name: name
            type:
              scalar: string
          - name: replicas
            type:
              scalar: numeric
          - name: enabled
            type:
              scalar: boolean
          - name: labels
            type:
              map:
                elementType:
                  scalar: string
          - name: tags
            type:
              list:
                elementType:
                  scalar: string
                elementRelationship: associative
          - name: ports
            type:
              list:
                elementType:
                  namedType: port
                elementRelationship: associative
                keys: [port, protocol]
          - name: args
            type:
              list:
                elementType:
                  scalar: string
                elementRelationship: atomic
          - name: ghost
            type:
              namedType: missing
      - name: port
        map:
          fields:
          - name: port
            type:
              scalar: numeric
          - name: protocol
            type:
              scalar: string
            default: TCP
          - name: name
            type:
              scalar: string
      """);
  private static final ParseableType ROOT = SCHEMA.type("root");

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      string field         | {name: 1}                                       | .name                            | expected string, got integer 1
      numeric field        | {replicas: "3"}                                 | .replicas                        | expected numeric (int or float), got string "3"
      boolean field        | {enabled: "yes"}                                | .enabled                         | expected boolean, got string "yes"
      map element          | {labels: {a: [1]}}                              | .labels.a                        | expected string, got list
      map expected         | {labels: [a]}                                   | .labels                          | expected map, got list
      list expected        | {tags: {a: 1}}                                  | .tags                            | expected list, got map
      set item type        | {tags: [a, 1]}                                  | .tags[=1]                        | expected string, got integer 1
      set duplicate        | {tags: [a, a]}                                  | .tags                            | duplicate entries for key [="a"]
      set of maps          | {tags: [{a: 1}]}                                | .tags                            | element 0: associative list without keys has an element that's a map type
      keyed item field     | {ports: [{port: 80, name: 1}]}                  | .ports[port=80,protocol="TCP"].name | expected string, got integer 1
      keyed duplicate      | {ports: [{port: 80}, {port: 80, protocol: TCP}]} | .ports                          | duplicate entries for key [port=80,protocol="TCP"]
      keyed null item      | {ports: [null]}                                 | .ports                           | element 0: associative list with keys may not have a null element
      undeclared field     | {nmae: x}                                       | .nmae                            | field not declared in schema
      atomic list item     | {args: [a, 1]}                                  | .args[1]                         | expected string, got integer 1
      unknown named type   | {ghost: 1}                                      | .ghost                           | schema error: no type found matching: missing
      root not a map       | [1]                                             | ''                               | expected map, got list
      """)
  void errorsNameThePath(String name, String yaml, String path, String message) {
    List<ValidationError> errors =
        ROOT.fromValueUnvalidated(Yaml.read(yaml)).validate(Duplicates.REJECT);
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0).path().toString()).isEqualTo(path.equals("''") ? "" : path);
    assertThat(errors.get(0).message()).startsWith(message);
  }

  @Test
  void duplicatesCanBeAllowed() {
    TypedValue v = ROOT.fromValue(Yaml.read("{tags: [a, a], ports: [{port: 80}, {port: 80}]}"),
        Duplicates.ALLOW);
    assertThat(v.validate(Duplicates.ALLOW)).isEmpty();
    assertThat(v.validate(Duplicates.REJECT)).extracting(e -> e.path().toString())
        .containsExactly(".tags", ".ports");
  }

  @Test
  void validationExceptionListsEveryError() {
    assertThatThrownBy(() -> ROOT.fromValue(Yaml.read("{name: 1, replicas: x}")))
        .isInstanceOf(ValidationException.class)
        .hasMessage("errors:\n  .name: expected string, got integer 1\n"
            + "  .replicas: expected numeric (int or float), got string \"x\"")
        .satisfies(e -> assertThat(((ValidationException) e).errors()).hasSize(2));
  }

  @Test
  void nullIsValidForEveryType() {
    assertThat(ROOT.nullValue().validate(Duplicates.REJECT)).isEmpty();
    assertThat(ROOT.fromValue(Yaml.read("{name: null, labels: null, ports: null}")).value())
        .isNotNull();
  }

  @Test
  void unknownTypeIsReportedWhenUsed() {
    ParseableType missing = SCHEMA.type("nope");
    assertThat(missing.isValid()).isFalse();
    assertThatThrownBy(() -> missing.fromValue(Yaml.read("{}")))
        .isInstanceOf(ValidationException.class)
        .hasMessage("schema error: no type found matching: nope");
  }

  @Test
  void deducedTypeAcceptsAnything() {
    TypedValue v = ParseableType.deduced().fromValue(Yaml.read("{a: [1, {b: 2}], c: {d: null}}"));
    assertThat(v.validate(Duplicates.REJECT)).isEmpty();
  }
}
