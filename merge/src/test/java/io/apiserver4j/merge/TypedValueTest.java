/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.FieldsV1;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TypedValueTest {
  private static final Schema SCHEMA = Schema.fromSmdYaml("""
      types:
      - name: root
        map:
          fields:
          - name: set
            type:
              list:
                elementType:
                  scalar: string
                elementRelationship: associative
          - name: items
            type:
              list:
                elementType:
                  map:
                    fields:
                    - name: name
                      type:
                        scalar: string
                    - name: value
                      type:
                        scalar: numeric
                elementRelationship: associative
                keys: [name]
          - name: atomic
            type:
              map:
                elementType:
                  scalar: string
                elementRelationship: atomic
          - name: struct
            type:
              map:
                fields:
                - name: a
                  type:
                    scalar: numeric
                - name: b
                  type:
                    scalar: numeric
      """);
  private static final ParseableType ROOT = SCHEMA.type("root");

  private static TypedValue v(String yaml) {
    return ROOT.fromValue(Yaml.read(yaml), Duplicates.ALLOW);
  }

  @ParameterizedTest(name = "{0} + {1}")
  @CsvSource(delimiter = '|', textBlock = """
      [a,b,c,d]     | [d,e,f,a]     | [b,c,d,e,f,a]
      [a,b,c,g,f]   | [c,d,e,f]     | [a,b,c,g,d,e,f]
      [a,b,c,p,q,r] | [d,e,f]       | [a,b,c,p,q,r,d,e,f]
      [a,b,c,p,q,r] | [d,e,f,p,q,r] | [a,b,c,d,e,f,p,q,r]
      [a,a,b,b]     | [b,c,d]       | [a,a,b,c,d]
      """)
  void mergeOrdersSetItemsLikeTheReference(String lhs, String rhs, String result) {
    TypedValue merged = v("{set: " + lhs + "}").merge(v("{set: " + rhs + "}"));
    assertThat(merged.value()).isEqualTo(Yaml.read("{set: " + result + "}"));
  }

  @Test
  void mergeRejectsDuplicatesInTheAppliedObject() {
    assertThatThrownBy(() -> v("{set: [a]}").merge(v("{set: [b, b]}")))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining(".set: duplicate entries for key [=\"b\"]");
  }

  @Test
  void mergeKeepsNullAndEmptyApart() {
    // As in SMD: null only replaces an empty container; a non-empty one is merged (and kept).
    assertThat(v("{struct: {a: 1}}").merge(v("{struct: null}")).value())
        .isEqualTo(Yaml.read("{struct: {a: 1}}"));
    assertThat(v("{struct: {}}").merge(v("{struct: null}")).value())
        .isEqualTo(Yaml.read("{struct: null}"));
    assertThat(v("{struct: null}").merge(v("{struct: {}}")).value())
        .isEqualTo(Yaml.read("{struct: {}}"));
    assertThat(v("{set: []}").merge(v("{}")).value()).isEqualTo(Yaml.read("{set: []}"));
  }

  @Test
  void mergeReplacesAtomicMapsWhole() {
    assertThat(v("{atomic: {x: a, y: b}}").merge(v("{atomic: {z: c}}")).value())
        .isEqualTo(Yaml.read("{atomic: {z: c}}"));
  }

  @Test
  void mergeSharesUnchangedSubtrees() {
    TypedValue live = v("{items: [{name: a, value: 1}], struct: {a: 1, b: 2}}");
    TypedValue merged = live.merge(v("{struct: {a: 5}}"));
    MapValue in = (MapValue) live.value();
    MapValue out = (MapValue) merged.value();
    assertThat(out.getOrNull("items")).isSameAs(in.getOrNull("items"));
    assertThat(out.getOrNull("struct")).isEqualTo(Yaml.read("{a: 5, b: 2}"));
  }

  @Test
  void toFieldSetRecordsLeavesItemsAndAtomicContainers() {
    FieldSet set = v("{set: [a], items: [{name: x, value: 1}], atomic: {k: v}, struct: {}}").toFieldSet();
    assertThat(FieldsV1.encode(set)).isEqualTo("{\"f:atomic\":{},\"f:items\":{\"k:{\\\"name\\\":\\\"x\\\"}\":"
        + "{\".\":{},\"f:name\":{},\"f:value\":{}}},\"f:set\":{\"v:\\\"a\\\"\":{}},\"f:struct\":{}}");
  }

  @Test
  void compareReportsAddedModifiedRemoved() {
    Comparison c = v("{struct: {a: 1, b: 2}, set: [a]}").compare(v("{struct: {a: 3}, set: [a, b]}"));
    assertThat(FieldsV1.encode(c.added())).isEqualTo("{\"f:set\":{\"v:\\\"b\\\"\":{}}}");
    assertThat(FieldsV1.encode(c.modified())).isEqualTo("{\"f:struct\":{\"f:a\":{}}}");
    assertThat(FieldsV1.encode(c.removed())).isEqualTo("{\"f:struct\":{\"f:b\":{}}}");
    assertThat(v("{set: [a]}").compare(v("{set: [a]}")).isSame()).isTrue();
  }

  @Test
  void compareTreatsNumericallyEqualIntAndFloatAsSame() {
    assertThat(v("{struct: {a: 1}}").compare(v("{struct: {a: 1.0}}")).isSame()).isTrue();
  }

  @Test
  void removeAndExtractAreComplementary() {
    TypedValue obj = v("{items: [{name: a, value: 1}, {name: b, value: 2}], struct: {a: 1, b: 2}}");
    FieldSet set = FieldsV1.decode("{\"f:items\":{\"k:{\\\"name\\\":\\\"a\\\"}\":{}},\"f:struct\":{\"f:b\":{}}}");
    assertThat(obj.removeItems(set).value())
        .isEqualTo(Yaml.read("{items: [{name: b, value: 2}], struct: {a: 1}}"));
    assertThat(obj.extractItems(set).value())
        .isEqualTo(Yaml.read("{items: [{name: a, value: 1}], struct: {b: 2}}"));
  }

  @Test
  void extractWithKeyFieldsKeepsItemIdentity() {
    TypedValue obj = v("{items: [{name: a, value: 1}]}");
    FieldSet set = FieldsV1.decode("{\"f:items\":{\"k:{\\\"name\\\":\\\"a\\\"}\":{\"f:value\":{}}}}");
    assertThat(obj.extractItems(set, KeyFields.INCLUDE).value())
        .isEqualTo(Yaml.read("{items: [{name: a, value: 1}]}"));
  }

  @Test
  void operationsNeverChangeTheirInputs() {
    Value before = Yaml.read("{set: [a], struct: {a: 1}}");
    TypedValue obj = ROOT.fromValue(before);
    obj.merge(v("{set: [b], struct: {b: 2}}"));
    obj.removeItems(obj.toFieldSet());
    assertThat(obj.value()).isEqualTo(Yaml.read("{set: [a], struct: {a: 1}}")).isSameAs(before);
  }

  @Test
  void valuesOfDifferentTypesCannotBeCombined() {
    TypedValue other = Schema.fromSmdYaml(SCHEMA.toSmdValue().toString()).type("root").nullValue();
    assertThatThrownBy(() -> ROOT.nullValue().merge(other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("same schema");
    assertThatThrownBy(() -> ROOT.nullValue().compare(ParseableType.deduced().nullValue()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reconcileCollapsesOwnershipWhenAStructBecomesAtomic() {
    Schema atomic = Schema.fromSmdYaml("""
        types:
        - name: root
          map:
            fields:
            - name: struct
              type:
                map:
                  fields:
                  - name: a
                    type:
                      scalar: numeric
                  elementRelationship: atomic
        """);
    TypedValue obj = atomic.type("root").fromValue(Yaml.read("{struct: {a: 1}}"));
    FieldSet owned = FieldsV1.decode("{\"f:struct\":{\"f:a\":{}}}");
    assertThat(obj.reconcileFieldSetWithSchema(owned).map(FieldsV1::encode))
        .contains("{\"f:struct\":{}}");
    assertThat(obj.reconcileFieldSetWithSchema(FieldsV1.decode("{\"f:struct\":{}}"))).isEmpty();
  }
}
