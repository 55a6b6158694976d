/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static io.apiserver4j.apimachinery.managedfields.TestFieldManager.object;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.fieldpath.ManagedFieldsEntry;
import io.apiserver4j.fieldpath.ManagedFieldsOperation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's capmanagers_test.go. */
class CapManagersManagerTest {
  private static final Instant GO_ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

  static Stream<Arguments> cases() {
    String text;
    try (InputStream in = CapManagersManagerTest.class.getResourceAsStream(
        "cap-update-managers-cases.yaml")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Arguments> out = new ArrayList<>();
    for (Value c : ((ListValue) ((MapValue) Yaml.read(text)).getOrNull("cases")).items()) {
      MapValue m = (MapValue) c;
      out.add(Arguments.of(Meta.string(m, "name"), entries(m.getOrNull("input")),
          entries(m.getOrNull("expected"))));
    }
    return out.stream();
  }

  private static List<ManagedFieldsEntry> entries(Value rows) {
    List<ManagedFieldsEntry> out = new ArrayList<>();
    for (Value row : ((ListValue) rows).items()) {
      List<Value> r = ((ListValue) row).items();
      List<FieldPath> paths = new ArrayList<>();
      for (Value f : ((ListValue) r.get(3)).items()) {
        paths.add(FieldPath.of(new FieldName(((StringValue) f).value())));
      }
      out.add(new ManagedFieldsEntry(((StringValue) r.get(0)).value(),
          ManagedFieldsOperation.UPDATE, ((StringValue) r.get(1)).value(),
          Optional.of(GO_ZERO_TIME.plus(Duration.ofHours(((IntegerValue) r.get(2)).value()))),
          FieldSet.of(paths.toArray(FieldPath[]::new)), ""));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aNoOpUpdateCapsUpdateManagers(String name, List<ManagedFieldsEntry> input,
      List<ManagedFieldsEntry> expected) {
    TestFieldManager f = TestFieldManager.of("v1", "Pod", b -> b.maxUpdateManagers(3));
    MapValue live = ManagedFields.withManagedFields(f.live(), input);
    f.setLive(live);
    f.update(live, "no-op-update");
    assertThat(f.managedFields()).isEqualTo(expected);
    expectIdempotence(f);
  }

  @Test
  void updatesBeyondTheCapMergeIntoAncientChanges() { // TestCapManagersManagerMergesEntries
    TestFieldManager f = TestFieldManager.of("v1", "Pod", b -> b.maxUpdateManagers(3));
    f.update(podWithLabels("one"), "fieldmanager_test_update_1");
    expectIdempotence(f);
    f.update(podWithLabels("one", "two"), "fieldmanager_test_update_2");
    expectIdempotence(f);
    f.update(podWithLabels("one", "two", "three"), "fieldmanager_test_update_3");
    expectIdempotence(f);
    f.update(podWithLabels("one", "two", "three", "four"), "fieldmanager_test_update_4");
    expectIdempotence(f);

    List<ManagedFieldsEntry> entries = f.managedFields();
    assertThat(entries).extracting(ManagedFieldsEntry::manager).containsExactly(
        "ancient-changes", "fieldmanager_test_update_3", "fieldmanager_test_update_4");
    assertThat(entries.get(0).fields().contains(label("one"))).isTrue();
    assertThat(entries.get(0).fields().contains(label("two"))).isTrue();
    assertThat(entries.get(1).fields().contains(label("three"))).isTrue();
    assertThat(entries.get(2).fields().contains(label("four"))).isTrue();
  }

  private static FieldPath label(String name) {
    return FieldPath.of(new FieldName("metadata"), new FieldName("labels"), new FieldName(name));
  }

  private static MapValue podWithLabels(String... labels) {
    MapValue.Builder b = MapValue.builder();
    for (String l : labels) {
      b.put(l, Value.of("true"));
    }
    return Meta.withMeta(object("{\"apiVersion\": \"v1\", \"kind\": \"Pod\"}"), "labels",
        b.build());
  }

  // a no-op update leaves managedFields as they are
  private static void expectIdempotence(TestFieldManager f) {
    List<ManagedFieldsEntry> before = f.managedFields();
    f.update(f.live(), "no-op-update");
    assertThat(f.managedFields()).isEqualTo(before);
  }
}
