/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static io.apiserver4j.fieldpath.ManagedFieldsOperation.APPLY;
import static io.apiserver4j.fieldpath.ManagedFieldsOperation.UPDATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Statements of apiserver-behaviors.md section 1, one test (or table) each. */
class ManagedFieldsTest {

  private static List<ManagedFieldsEntry> decodeYaml(String yaml) {
    return ManagedFields.decode(Yaml.read(yaml));
  }

  private static ManagedFieldsEntry entry(String manager, ManagedFieldsOperation op, String time) {
    return new ManagedFieldsEntry(manager, op, "v1",
        time == null ? Optional.empty() : Optional.of(Instant.parse(time)), FieldSet.empty(), "");
  }

  // 1.1.1 field order, omitted empties; 1.1.3 fieldsType always FieldsV1
  @Test
  void encodesEntriesInKubeFieldOrder() {
    FieldSet fields = FieldsV1.decode("{\"f:spec\":{\"f:replicas\":{}}}");
    ManagedFieldsEntry full = new ManagedFieldsEntry("kubectl", UPDATE, "apps/v1",
        Optional.of(Instant.parse("2024-05-06T07:08:09.123456789Z")), fields, "scale");
    assertThat(Json.write(full.toValue())).isEqualTo("{\"manager\":\"kubectl\","
        + "\"operation\":\"Update\",\"apiVersion\":\"apps/v1\",\"time\":\"2024-05-06T07:08:09Z\","
        + "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:spec\":{\"f:replicas\":{}}},"
        + "\"subresource\":\"scale\"}");
    ManagedFieldsEntry bare = ManagedFieldsEntry.of("", APPLY, "v1", FieldSet.empty());
    assertThat(Json.write(bare.toValue()))
        .isEqualTo("{\"operation\":\"Apply\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\","
            + "\"fieldsV1\":{}}");
  }

  // 1.1.2 / 1.3.1 operation exactly Apply or Update, missing is the same error
  @ParameterizedTest
  @ValueSource(strings = {"apply", "UPDATE", "Patch", ""})
  void operationMustBeApplyOrUpdate(String op) {
    String yaml = "- apiVersion: v1\n  fieldsType: FieldsV1\n  manager: foo\n"
        + (op.isEmpty() ? "" : "  operation: " + op + "\n");
    assertThatThrownBy(() -> decodeYaml(yaml)).isInstanceOf(ManagedFieldsException.class)
        .hasMessage("operation must be `Apply` or `Update`");
  }

  // 1.1.6 time written RFC 3339 UTC, second precision
  @Test
  void timeIsWrittenInUtcSeconds() {
    assertThat(ManagedFields.formatTime(Instant.parse("2001-02-03T04:05:06.999Z")))
        .isEqualTo("2001-02-03T04:05:06Z");
    List<ManagedFieldsEntry> e = decodeYaml("- apiVersion: v1\n  fieldsType: FieldsV1\n"
        + "  operation: Update\n  time: \"2001-02-03T06:05:06.5+02:00\"\n");
    assertThat(e.get(0).time()).contains(Instant.parse("2001-02-03T04:05:06.5Z"));
    assertThat(ManagedFields.encode(e).get(0)).isInstanceOf(MapValue.class);
    assertThat(((MapValue) ManagedFields.encode(e).get(0)).getOrNull("time"))
        .isEqualTo(Value.of("2001-02-03T04:05:06Z"));
  }

  // Go's time.RFC3339 at second precision in UTC, as metav1.Time marshals; before the epoch and
  // after 9999 included
  @Test
  void timeIsWrittenAsRfc3339InUtcAtEveryInstant() {
    assertThat(ManagedFields.formatTime(Instant.parse("1969-12-31T23:59:59.5Z")))
        .isEqualTo("1969-12-31T23:59:59Z");
    assertThat(ManagedFields.formatTime(Instant.parse("0001-01-01T00:00:00Z")))
        .isEqualTo("0001-01-01T00:00:00Z");
    assertThat(ManagedFields.formatTime(Instant.parse("2024-02-29T23:59:59Z")))
        .isEqualTo("2024-02-29T23:59:59Z");
    assertThat(ManagedFields.formatTime(Instant.parse("9999-12-31T23:59:59Z")))
        .isEqualTo("9999-12-31T23:59:59Z");
    DateTimeFormatter rfc3339 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'",
        Locale.ROOT).withZone(ZoneOffset.UTC);
    for (long s = -62_135_596_800L; s < 253_402_300_800L; s += 86_399L * 97 + 13) {
      Instant t = Instant.ofEpochSecond(s);
      assertThat(ManagedFields.formatTime(t)).isEqualTo(rfc3339.format(t));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"yesterday", "2001-02-03 04:05:06Z", "2001-02-03T04:05:06",
      "2001-13-03T04:05:06Z", "2001-02-30T04:05:06Z", "2001-02-03t04:05:06z",
      "2001-02-03T04:05:06+2:00", ""})
  void malformedTimesAreRejected(String time) {
    String yaml = "- apiVersion: v1\n  fieldsType: FieldsV1\n  operation: Update\n  time: \""
        + time + "\"\n";
    assertThatThrownBy(() -> decodeYaml(yaml)).isInstanceOf(ManagedFieldsException.class)
        .hasMessageContaining("invalid time").hasMessageContaining("managed fields entry 0");
  }

  // 1.1.7 an empty managed set is no managedFields at all
  @Test
  void noEntriesMeansNoField() {
    MapValue obj = (MapValue) Json.read("{\"metadata\":{\"name\":\"x\",\"managedFields\":[]}}");
    MapValue out = ManagedFields.withManagedFields(obj, List.of());
    assertThat(Json.write(out)).isEqualTo("{\"metadata\":{\"name\":\"x\"}}");
    MapValue none = (MapValue) Json.read("{\"kind\":\"Pod\"}");
    assertThat(ManagedFields.withManagedFields(none, List.of())).isSameAs(none);
    MapValue with = ManagedFields.withManagedFields(none,
        List.of(ManagedFieldsEntry.of("m", APPLY, "v1", FieldsV1.decode("{\"f:a\":{}}"))));
    assertThat(Json.write(with)).isEqualTo("{\"kind\":\"Pod\",\"metadata\":{\"managedFields\":"
        + "[{\"manager\":\"m\",\"operation\":\"Apply\",\"apiVersion\":\"v1\","
        + "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:a\":{}}}]}}");
  }

  // 1.2.16 a fieldsV1 decode error makes the whole list undecodable
  @Test
  void badFieldsV1FailsTheWholeList() {
    String yaml = "- apiVersion: v1\n  fieldsType: FieldsV1\n  operation: Apply\n  manager: a\n"
        + "  fieldsV1: {f:a: {}}\n"
        + "- apiVersion: v1\n  fieldsType: FieldsV1\n  operation: Apply\n  manager: b\n"
        + "  fieldsV1: {x: {}}\n";
    assertThatThrownBy(() -> decodeYaml(yaml)).isInstanceOf(ManagedFieldsException.class)
        .hasMessageStartingWith("error decoding versioned set from managed fields entry 1 "
            + "(manager \"b\"): error decoding set: ")
        .hasMessageContaining("key must be 2 characters long:");
  }

  // 1.2.17 round trip of canonical lists (upstream TestRoundTripManagedFields)
  @ParameterizedTest
  @ValueSource(strings = {
      "- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    v:3:\n      f:alsoPi: {}\n"
          + "    v:3.1415:\n      f:pi: {}\n    v:false:\n      f:notTrue: {}\n  manager: foo\n"
          + "  operation: Update\n  time: \"2001-02-03T04:05:06Z\"\n- apiVersion: v1beta1\n"
          + "  fieldsType: FieldsV1\n  fieldsV1:\n    i:5:\n      f:i: {}\n  manager: foo\n"
          + "  operation: Update\n  time: \"2011-12-13T14:15:16Z\"\n",
      "- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:spec:\n      f:containers:\n"
          + "        k:{\"name\":\"c\"}:\n          f:image: {}\n          f:name: {}\n"
          + "  manager: foo\n  operation: Apply\n",
      "- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:apiVersion: {}\n"
          + "    f:kind: {}\n    f:metadata:\n      f:labels:\n        f:app: {}\n      f:name: {}\n"
          + "    f:spec:\n      f:replicas: {}\n      f:selector:\n        f:matchLabels:\n"
          + "          f:app: {}\n      f:template:\n        f:medatada:\n          f:labels:\n"
          + "            f:app: {}\n        f:spec:\n          f:containers:\n"
          + "            k:{\"name\":\"nginx\"}:\n              .: {}\n              f:image: {}\n"
          + "              f:name: {}\n              f:ports:\n                i:0:\n"
          + "                  f:containerPort: {}\n  manager: foo\n  operation: Update\n",
      "- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:spec:\n      f:group: {}\n"
          + "      f:names:\n        f:shortNames:\n          i:0: {}\n      f:versions:\n"
          + "        k:{\"name\":\"v1\"}:\n          f:name: {}\n          f:served: {}\n"
          + "  manager: foo\n  operation: Update\n",
      "- apiVersion: v1\n  fieldsType: FieldsV1\n  fieldsV1:\n    f:spec:\n      f:replicas: {}\n"
          + "  manager: foo\n  operation: Update\n  subresource: scale\n",
  })
  void canonicalListsRoundTrip(String yaml) {
    ListValue input = (ListValue) Yaml.read(yaml);
    ListValue encoded = ManagedFields.encode(ManagedFields.decode(input));
    assertThat(encoded).isEqualTo(input);
    for (int i = 0; i < input.size(); i++) {
      // fieldsV1 key order is significant and must come back identical
      assertThat(Json.write(((MapValue) encoded.get(i)).getOrNull("fieldsV1")))
          .isEqualTo(Json.write(((MapValue) input.get(i)).getOrNull("fieldsV1")));
    }
    assertThat(ManagedFields.decode(Value.nullValue())).isEmpty();
  }

  // 1.3.2 apiVersion must not be empty
  @Test
  void apiVersionIsRequired() {
    assertThatThrownBy(() -> decodeYaml("- fieldsType: FieldsV1\n  operation: Apply\n"))
        .isInstanceOf(ManagedFieldsException.class).hasMessage("apiVersion must not be empty");
    assertThatThrownBy(() -> decodeYaml("- apiVersion: ''\n  fieldsType: FieldsV1\n  operation: Apply\n"))
        .hasMessage("apiVersion must not be empty");
    assertThatThrownBy(() -> ManagedFieldsEntry.of("m", APPLY, "", FieldSet.empty()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // 1.3.3 fieldsType missing or not FieldsV1
  @Test
  void fieldsTypeMustBeFieldsV1() {
    assertThatThrownBy(() -> decodeYaml("- apiVersion: v1\n  operation: Apply\n"
        + "- apiVersion: v1\n  operation: Update\n  fieldsType: FieldsV1\n"))
        .hasMessage("missing fieldsType in managed fields entry 0");
    assertThatThrownBy(() -> decodeYaml("- apiVersion: v1\n  operation: Apply\n  fieldsType: FieldsV1\n"
        + "- apiVersion: v1\n  operation: Update\n  fieldsType: FieldsV2\n"))
        .hasMessage("invalid fieldsType \"FieldsV2\" in managed fields entry 1");
  }

  // checks run in kube's order: operation, apiVersion, fieldsType
  @Test
  void checksRunInKubeOrder() {
    assertThatThrownBy(() -> decodeYaml("- fieldsType: X\n  operation: Nope\n"))
        .hasMessage("operation must be `Apply` or `Update`");
    assertThatThrownBy(() -> decodeYaml("- fieldsType: X\n  operation: Apply\n"))
        .hasMessage("apiVersion must not be empty");
  }

  // 1.3.4 nil fieldsV1 is the empty set; 1.3.5 empty manager accepted
  @Test
  void nullFieldsAndEmptyManagerAreAccepted() {
    List<ManagedFieldsEntry> e = decodeYaml("- apiVersion: v1\n  fieldsType: FieldsV1\n"
        + "  operation: Apply\n- apiVersion: v1\n  fieldsType: FieldsV1\n  operation: Update\n"
        + "  manager: x\n  fieldsV1: null\n");
    assertThat(e).hasSize(2);
    assertThat(e.get(0).manager()).isEmpty();
    assertThat(e.get(0).fields().isEmpty()).isTrue();
    assertThat(e.get(1).fields().isEmpty()).isTrue();
  }

  @Test
  void wrongShapesAreClearErrors() {
    assertThatThrownBy(() -> ManagedFields.decode(Json.read("{}")))
        .isInstanceOf(ManagedFieldsException.class)
        .hasMessage("managedFields must be a list, found map");
    assertThatThrownBy(() -> ManagedFields.decode(Json.read("[1]")))
        .hasMessage("managed fields entry 0 must be an object, found integer");
    assertThatThrownBy(() -> ManagedFields.decode(Json.read(
        "[{\"manager\":5,\"operation\":\"Apply\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\"}]")))
        .hasMessage("manager of managed fields entry 0 must be a string, found integer");
    assertThatThrownBy(() -> ManagedFields.decode(Json.read("[null]")))
        .hasMessage("operation must be `Apply` or `Update`");
    // unknown keys are ignored, as Go's JSON decoding ignores them
    assertThat(ManagedFields.decode(Json.read("[{\"operation\":\"Apply\",\"apiVersion\":\"v1\","
        + "\"fieldsType\":\"FieldsV1\",\"extra\":true}]"))).hasSize(1);
  }

  // 1.3.6 ObjectMeta validation messages
  @Test
  void objectMetaValidation() {
    String longManager = "m".repeat(129);
    String longSub = "s".repeat(257);
    Value list = Json.read("[{\"operation\":\"\"},{\"operation\":\"Patch\",\"fieldsType\":\"FieldsV2\","
        + "\"manager\":\"" + longManager + "\",\"subresource\":\"" + longSub + "\"},"
        + "{\"operation\":\"Apply\",\"manager\":\"a\\u0007b\\u00a0\"},"
        + "{\"operation\":\"Update\",\"fieldsType\":\"FieldsV1\",\"manager\":\"" + "m".repeat(128)
        + "\"}]");
    List<String> messages = ManagedFields.validate(list, "metadata.managedFields").stream()
        .map(FieldError::toString).toList();
    assertThat(messages).containsExactly(
        "metadata.managedFields[0].operation: Required value: must not be empty",
        "metadata.managedFields[1].operation: Unsupported value: \"Patch\": supported values: "
            + "\"Apply\", \"Update\"",
        "metadata.managedFields[1].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`",
        "metadata.managedFields[1].manager: Too long: may not be more than 128 bytes",
        "metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes",
        "metadata.managedFields[2].manager: Invalid value: \"a\\ab\\u00a0\": invalid character "
            + "U+0007 (at position 1)",
        "metadata.managedFields[2].manager: Invalid value: \"a\\ab\\u00a0\": invalid character "
            + "U+00A0 (at position 3)");
    assertThat(ManagedFields.validate(Value.nullValue(), "metadata.managedFields")).isEmpty();
    assertThat(ManagedFields.validateManager("\u00e9".repeat(65), "f")).extracting(FieldError::toString)
        .containsExactly("f: Too long: may not be more than 128 bytes");
  }

  // 1.4.1 identity (upstream TestBuildManagerIdentifier)
  @Test
  void identities() {
    FieldSet f = FieldsV1.decode("{\"f:apiVersion\":{}}");
    Instant t = Instant.parse("2001-02-03T04:05:06Z");
    assertThat(new ManagedFieldsEntry("foo", UPDATE, "v1", Optional.of(t), f, "").identity())
        .isEqualTo("{\"manager\":\"foo\",\"operation\":\"Update\",\"apiVersion\":\"v1\"}");
    assertThat(new ManagedFieldsEntry("foo", APPLY, "v1", Optional.of(t), f, "").identity())
        .isEqualTo("{\"manager\":\"foo\",\"operation\":\"Apply\"}");
    assertThat(new ManagedFieldsEntry("foo", APPLY, "v1", Optional.of(t), f, "scale").identity())
        .isEqualTo("{\"manager\":\"foo\",\"operation\":\"Apply\",\"subresource\":\"scale\"}");
    assertThat(ManagedFieldsEntry.of("", UPDATE, "v1", f).identity())
        .isEqualTo("{\"operation\":\"Update\",\"apiVersion\":\"v1\"}");
    assertThat(ManagedFieldsEntry.of("<&>", APPLY, "v1", f).identity())
        .isEqualTo("{\"manager\":\"\\u003c\\u0026\\u003e\",\"operation\":\"Apply\"}");
  }

  // 1.4.2 / 1.4.3 one entry per identity, the later one wins
  @Test
  void duplicateIdentitiesKeepTheLaterEntry() {
    List<ManagedFieldsEntry> e = decodeYaml(
        "- {manager: a, operation: Apply, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {f:x: {}}}\n"
            + "- {manager: a, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {f:u: {}}}\n"
            + "- {manager: a, operation: Update, apiVersion: v2, fieldsType: FieldsV1, fieldsV1: {f:w: {}}}\n"
            + "- {manager: a, operation: Apply, apiVersion: v2, fieldsType: FieldsV1,"
            + " time: '2020-01-01T00:00:00Z', fieldsV1: {f:y: {}}}\n");
    assertThat(e).hasSize(3);
    assertThat(e.get(0).apiVersion()).isEqualTo("v2");
    assertThat(FieldsV1.encode(e.get(0).fields())).isEqualTo("{\"f:y\":{}}");
    assertThat(e.get(0).time()).isPresent();
  }

  // 1.5.1 / 1.5.2 ordering (upstream TestSortEncodedManagedFields)
  @Test
  void sortsLikeKube() {
    List<ManagedFieldsEntry> in = List.of(
        entry("c", UPDATE, "2001-01-01T01:00:00Z"), entry("a", APPLY, null),
        entry("g", APPLY, null), entry("f", UPDATE, "2002-01-01T01:00:00Z"),
        entry("i", APPLY, null), entry("d", UPDATE, "2002-01-01T01:00:00Z"),
        entry("h", APPLY, null), entry("e", UPDATE, "2003-01-01T01:00:00Z"),
        entry("b", APPLY, null));
    assertThat(ManagedFields.sorted(in)).extracting(ManagedFieldsEntry::manager)
        .containsExactly("a", "b", "g", "h", "i", "c", "d", "f", "e");
    List<ManagedFieldsEntry> sameSecond = List.of(
        entry("c", UPDATE, "1999-12-31T00:00:00.000000001Z"),
        entry("a", UPDATE, "1999-12-31T00:00:00.000000002Z"),
        entry("b", UPDATE, "1999-12-31T00:00:00.000000003Z"));
    assertThat(ManagedFields.sorted(sameSecond)).extracting(ManagedFieldsEntry::manager)
        .containsExactly("a", "b", "c");
    List<ManagedFieldsEntry> noTimeFirst = List.of(
        entry("a", APPLY, "2001-01-01T01:00:00Z"), entry("b", APPLY, null), entry("a", APPLY, null));
    assertThat(ManagedFields.sorted(noTimeFirst)).extracting(e -> e.manager() + e.time().isPresent())
        .containsExactly("afalse", "bfalse", "atrue");
    ManagedFieldsEntry base = entry("a", APPLY, null);
    assertThat(ManagedFields.sorted(List.of(base.withSubresource("status"),
        base.withSubresource("scale"), base))).extracting(ManagedFieldsEntry::subresource)
        .containsExactly("", "scale", "status");
    ManagedFieldsEntry v2 = new ManagedFieldsEntry("a", UPDATE, "v2", Optional.empty(),
        FieldSet.empty(), "");
    assertThat(ManagedFields.sorted(List.of(v2, entry("a", UPDATE, null))))
        .extracting(ManagedFieldsEntry::apiVersion).containsExactly("v1", "v2");
    // before 1970 counts as earlier than "no time" (0)
    assertThat(ManagedFields.sorted(List.of(entry("a", UPDATE, null),
        entry("z", UPDATE, "1960-01-01T00:00:00Z")))).extracting(ManagedFieldsEntry::manager)
        .containsExactly("z", "a");
  }

  @Test
  void withersKeepOtherComponents() {
    ManagedFieldsEntry e = ManagedFieldsEntry.of("m", UPDATE, "v1", FieldSet.empty());
    Instant t = Instant.parse("2020-02-02T02:02:02Z");
    assertThat(e.withTime(t).time()).contains(t);
    assertThat(e.withTime(t).withoutTime()).isEqualTo(e);
    FieldSet f = FieldsV1.decode("{\"f:a\":{}}");
    assertThat(e.withFields(f).fields()).isEqualTo(f);
    assertThat(e.isApply()).isFalse();
    assertThat(ManagedFieldsOperation.fromWireName("Apply")).contains(APPLY);
    assertThat(ManagedFieldsOperation.fromWireName("apply")).isEmpty();
    assertThat(UPDATE.wireName()).isEqualTo("Update");
  }
}
