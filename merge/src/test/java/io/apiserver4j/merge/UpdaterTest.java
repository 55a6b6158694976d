/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Yaml;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldsV1;
import io.apiserver4j.fieldpath.PathElement;
import org.junit.jupiter.api.Test;

class UpdaterTest {
  private static final Schema SCHEMA = Schema.fromSmdYaml("""
      types:
      - name: root
        map:
          fields:
          - name: a
            type:
              scalar: numeric
          - name: b
            type:
              scalar: numeric
          - name: status
            type:
              scalar: string
          - name: items
            type:
              list:
                elementType:
                  map:
                    fields:
                    - name: name
                      type:
                        scalar: string
                    - name: image
                      type:
                        scalar: string
                elementRelationship: associative
                keys: [name]
      """);
  private static final ParseableType ROOT = SCHEMA.type("root");
  private static final Updater UPDATER = Updater.builder().build();

  private static TypedValue v(String yaml) {
    return ROOT.fromValue(Yaml.read(yaml));
  }

  private static String fields(UpdateResult r, String manager) {
    return FieldsV1.encode(r.managers().get(manager).orElseThrow().set());
  }

  private static UpdateResult apply(TypedValue live, String yaml, ManagedFieldsMap m, String manager) {
    return UPDATER.apply(live, v(yaml), "v1", m, manager, Force.NO);
  }

  @Test
  void applyCreatesAndRecordsOwnership() {
    UpdateResult r = apply(ROOT.nullValue(), "{a: 1}", ManagedFieldsMap.empty(), "m1");
    assertThat(r.changed()).isTrue();
    assertThat(r.object().value()).isEqualTo(Yaml.read("{a: 1}"));
    assertThat(r.managers().get("m1")).contains(
        new VersionedSet(FieldsV1.decode("{\"f:a\":{}}"), "v1", true));
  }

  @Test
  void applyingTheSameAgainChangesNothing() {
    UpdateResult first = apply(ROOT.nullValue(), "{a: 1}", ManagedFieldsMap.empty(), "m1");
    UpdateResult second = apply(first.object(), "{a: 1}", first.managers(), "m1");
    assertThat(second.changed()).isFalse();
    assertThat(second.object()).isSameAs(first.object());
    assertThat(second.managers()).isEqualTo(first.managers());
  }

  @Test
  void changingAnotherManagersFieldConflicts() {
    UpdateResult first = apply(ROOT.nullValue(), "{a: 1, b: 1}", ManagedFieldsMap.empty(), "m1");
    assertThatThrownBy(() -> apply(first.object(), "{a: 2}", first.managers(), "m2"))
        .isInstanceOfSatisfying(ConflictsException.class, e -> assertThat(e.conflicts())
            .containsExactly(new Conflict("m1", FieldPath.of(PathElement.field("a")))))
        .hasMessage("conflict with \"m1\": .a");
    assertThatThrownBy(() -> apply(first.object(), "{a: 2, b: 2}", first.managers(), "m2"))
        .isInstanceOf(ConflictsException.class)
        .hasMessage("conflicts with \"m1\":\n- .a\n- .b");
  }

  @Test
  void conflictsOnListItemsNameTheKey() {
    UpdateResult first = apply(ROOT.nullValue(), "{items: [{name: x, image: i1}]}",
        ManagedFieldsMap.empty(), "m1");
    assertThatThrownBy(() -> apply(first.object(), "{items: [{name: x, image: i2}]}",
            first.managers(), "m2"))
        .hasMessage("conflict with \"m1\": .items[name=\"x\"].image");
  }

  @Test
  void forceTakesOwnership() {
    UpdateResult first = apply(ROOT.nullValue(), "{a: 1, b: 1}", ManagedFieldsMap.empty(), "m1");
    UpdateResult forced = UPDATER.apply(first.object(), v("{a: 2}"), "v1", first.managers(), "m2", Force.YES);
    assertThat(forced.object().value()).isEqualTo(Yaml.read("{a: 2, b: 1}"));
    assertThat(fields(forced, "m1")).isEqualTo("{\"f:b\":{}}");
    assertThat(fields(forced, "m2")).isEqualTo("{\"f:a\":{}}");
  }

  @Test
  void applyingTheSameValueSharesOwnership() {
    UpdateResult first = apply(ROOT.nullValue(), "{a: 1}", ManagedFieldsMap.empty(), "m1");
    UpdateResult shared = apply(first.object(), "{a: 1}", first.managers(), "m2");
    assertThat(fields(shared, "m1")).isEqualTo("{\"f:a\":{}}");
    assertThat(fields(shared, "m2")).isEqualTo("{\"f:a\":{}}");
    // m1 omitting a releases it; m2 still owns it, so the value stays.
    UpdateResult released = apply(shared.object(), "{b: 1}", shared.managers(), "m1");
    assertThat(released.object().value()).isEqualTo(Yaml.read("{a: 1, b: 1}"));
    assertThat(fields(released, "m1")).isEqualTo("{\"f:b\":{}}");
  }

  @Test
  void omittedFieldsNobodyElseOwnsAreRemoved() {
    UpdateResult first = apply(ROOT.nullValue(), "{a: 1, items: [{name: x}, {name: z}]}",
        ManagedFieldsMap.empty(), "m1");
    UpdateResult second = apply(first.object(), "{items: [{name: z}]}", first.managers(), "m1");
    assertThat(second.object().value()).isEqualTo(Yaml.read("{items: [{name: z}]}"));
  }

  @Test
  void updateTakesChangedFieldsFromAppliers() {
    UpdateResult first = apply(ROOT.nullValue(), "{a: 1, b: 1}", ManagedFieldsMap.empty(), "m1");
    UpdateResult upd = UPDATER.update(first.object(), v("{a: 1, b: 2, status: ok}"), "v1",
        first.managers(), "controller");
    assertThat(upd.changed()).isTrue();
    assertThat(fields(upd, "m1")).isEqualTo("{\"f:a\":{}}");
    assertThat(upd.managers().get("controller")).contains(
        new VersionedSet(FieldsV1.decode("{\"f:b\":{},\"f:status\":{}}"), "v1", false));
    UpdateResult same = UPDATER.update(upd.object(), upd.object(), "v1", upd.managers(), "controller");
    assertThat(same.changed()).isFalse();
    assertThat(same.managers()).isEqualTo(upd.managers());
  }

  @Test
  void managersAtMissingVersionsAreDropped() {
    VersionConverter converter = (object, version) -> {
      if (version.equals("v0")) {
        throw new MissingVersionException("v0 is gone");
      }
      return object;
    };
    Updater updater = Updater.builder().converter(converter).build();
    ManagedFieldsMap old = ManagedFieldsMap.empty()
        .with("ancient", new VersionedSet(FieldsV1.decode("{\"f:b\":{}}"), "v0", true));
    UpdateResult r = updater.apply(v("{b: 1}"), v("{a: 1}"), "v1", old, "m1", Force.NO);
    assertThat(r.managers().managers()).containsExactly("m1");
    assertThat(old.managers()).containsExactly("ancient");
  }

  @Test
  void otherConversionFailuresFail() {
    Updater updater = Updater.builder().converter((object, version) -> {
      throw new ConversionException("broken");
    }).build();
    ManagedFieldsMap m = ManagedFieldsMap.empty()
        .with("other", new VersionedSet(FieldsV1.decode("{\"f:b\":{}}"), "v2", true));
    assertThatThrownBy(() -> updater.apply(v("{b: 1}"), v("{a: 1}"), "v1", m, "m1", Force.NO))
        .isInstanceOf(ConversionException.class)
        .isNotInstanceOf(MissingVersionException.class)
        .hasMessageContaining("broken");
  }

  @Test
  void ignoredFieldsAreNeverOwned() {
    Updater updater = Updater.builder()
        .ignoredFields("v1", FieldsV1.decode("{\"f:status\":{}}"))
        .build();
    UpdateResult r = updater.apply(ROOT.nullValue(), v("{a: 1, status: s}"), "v1",
        ManagedFieldsMap.empty(), "m1", Force.NO);
    assertThat(r.object().value()).isEqualTo(Yaml.read("{a: 1, status: s}"));
    assertThat(fields(r, "m1")).isEqualTo("{\"f:a\":{}}");
    UpdateResult other = updater.apply(r.object(), v("{status: t}"), "v1", r.managers(), "m2", Force.NO);
    assertThat(other.object().value()).isEqualTo(Yaml.read("{a: 1, status: t}"));
    assertThat(other.managers().contains("m2")).isFalse();
  }

  @Test
  void builderRejectsClashingIgnoreSettings() {
    Updater.Builder b = Updater.builder().ignoredFields("v1", FieldsV1.decode("{\"f:a\":{}}"));
    assertThatThrownBy(() -> b.ignoreFilter("v1", set -> set))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("\"v1\"");
  }

  @Test
  void emptyApplyByTheOnlyManagerRemovesEverything() {
    UpdateResult first = apply(ROOT.nullValue(), "{a: 1}", ManagedFieldsMap.empty(), "m1");
    UpdateResult empty = UPDATER.apply(first.object(), ROOT.nullValue(), "v1", first.managers(), "m1", Force.NO);
    assertThat(empty.object().value().isNull()).isTrue();
    assertThat(empty.managers().isEmpty()).isTrue();
  }

  @Test
  void reorderingListItemsIsAChangeThatMovesNoOwnership() {
    TypedValue live = v("{items: [{name: x}, {name: z}]}");
    TypedValue reordered = v("{items: [{name: z}, {name: x}]}");
    assertThat(live.compare(reordered).isSame()).isTrue();
    UpdateResult r = UPDATER.update(live, reordered, "v1", ManagedFieldsMap.empty(), "c");
    assertThat(r.changed()).isTrue();
    UpdateResult numeric = UPDATER.update(v("{a: 1}"), v("{a: 1.0}"), "v1", ManagedFieldsMap.empty(), "c");
    assertThat(numeric.changed()).isTrue();
    assertThat(numeric.managers().isEmpty()).isTrue();
  }
}
