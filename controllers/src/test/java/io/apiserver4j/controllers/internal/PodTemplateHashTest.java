/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The parts of kube's {@code controller.ComputeHash}, each against its Go source's contract:
 * FNV-32a (Go's hash/fnv test vectors), {@code rand.SafeEncodeString} (its alphabet), go-spew's
 * {@code %#v} (format.go's rules over the struct layout of k8s.io/api v0.36.3) and
 * {@code resource.ParseQuantity}'s int64 form.
 */
class PodTemplateHashTest {
  private static final MapValue TEMPLATE = (MapValue) Json.read("{\"metadata\":{\"labels\":"
      + "{\"app\":\"web\",\"tier\":\"front\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
      + "\"image\":\"nginx\",\"resources\":{\"limits\":{\"memory\":\"1Gi\",\"cpu\":\"100m\"}},"
      + "\"ports\":[{\"containerPort\":80}]}],\"terminationGracePeriodSeconds\":30,"
      + "\"securityContext\":{}}}");

  /** Go's hash/fnv golden32a vectors. */
  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource({
      "'', 811c9dc5",
      "a, e40c292c",
      "ab, 4d2505ca",
      "abc, 1a47e90b",
  })
  void fnv32a(String input, String hex) {
    int h = PodTemplateHash.fnv32a(0x811c9dc5, input.getBytes(StandardCharsets.UTF_8));
    assertThat(Integer.toHexString(h)).isEqualTo(hex);
  }

  /** SafeEncodeString maps each character onto "bcdfghjklmnpqrstvwxz2456789" by its code. */
  @Test
  void safeEncode() {
    assertThat(PodTemplateHash.safeEncode("0123456789")).isEqualTo("456789bcdf");
  }

  @Test
  void printsEveryFieldInDeclarationOrderWithItsGoType() {
    String printed = PodTemplateHash.print(TEMPLATE);
    assertThat(printed).startsWith("(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){"
        + "Name:(string) GenerateName:(string) Namespace:(string) SelfLink:(string) "
        + "UID:(types.UID) ResourceVersion:(string) Generation:(int64)0 "
        + "CreationTimestamp:(v1.Time){Time:(time.Time){wall:(uint64)0 ext:(int64)0 "
        + "loc:(*time.Location)<nil>}} DeletionTimestamp:(*v1.Time)<nil> "
        + "DeletionGracePeriodSeconds:(*int64)<nil> "
        + "Labels:(map[string]string)map[app:web tier:front] "
        + "Annotations:(map[string]string)<nil> OwnerReferences:([]v1.OwnerReference)<nil> "
        + "Finalizers:([]string)<nil> ManagedFields:([]v1.ManagedFieldsEntry)<nil>} "
        + "Spec:(v1.PodSpec){Volumes:([]v1.Volume)<nil> InitContainers:([]v1.Container)<nil> "
        + "Containers:([]v1.Container)[{Name:(string)c Image:(string)nginx "
        + "Command:([]string)<nil> Args:([]string)<nil> WorkingDir:(string) "
        + "Ports:([]v1.ContainerPort)[{Name:(string) HostPort:(int32)0 ContainerPort:(int32)80 "
        + "Protocol:(v1.Protocol) HostIP:(string)}] ");
    // map values print without their type; sorted keys
    assertThat(printed).contains("Limits:(v1.ResourceList)map[cpu:{i:(resource.int64Amount)"
        + "{value:(int64)100 scale:(resource.Scale)-3} d:(resource.infDecAmount)"
        + "{Dec:(*inf.Dec)<nil>} s:(string)100m Format:(resource.Format)DecimalSI} "
        + "memory:{i:(resource.int64Amount){value:(int64)1073741824 scale:(resource.Scale)0} "
        + "d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)1Gi "
        + "Format:(resource.Format)BinarySI}] Requests:(v1.ResourceList)<nil>");
    assertThat(printed).contains("TerminationGracePeriodSeconds:(*int64)30 ");
    assertThat(printed).contains("SecurityContext:(*v1.PodSecurityContext){SELinuxOptions:"
        + "(*v1.SELinuxOptions)<nil> ");
    assertThat(printed).endsWith("SchedulingGroup:(*v1.PodSchedulingGroup)<nil>}}");
  }

  @Test
  void emptyListsAndMapsPrintAsNilAsAfterAProtobufRoundTrip() {
    MapValue withEmpty = (MapValue) Json.read("{\"metadata\":{\"labels\":{\"app\":\"web\","
        + "\"tier\":\"front\"},\"annotations\":{}},\"spec\":{\"containers\":[{\"name\":\"c\","
        + "\"image\":\"nginx\",\"args\":[],\"resources\":{\"limits\":{\"cpu\":\"100m\","
        + "\"memory\":\"1Gi\"}},\"ports\":[{\"containerPort\":80}]}],\"volumes\":[],"
        + "\"securityContext\":{},\"terminationGracePeriodSeconds\":30}}");
    assertThat(PodTemplateHash.print(withEmpty)).isEqualTo(PodTemplateHash.print(TEMPLATE));
    assertThat(PodTemplateHash.compute(withEmpty, OptionalLong.empty()))
        .isEqualTo(PodTemplateHash.compute(TEMPLATE, OptionalLong.empty()));
  }

  @Test
  void theCollisionCountChangesTheHashAndTheHashLabelIsIgnoredWhenComparing() {
    String plain = PodTemplateHash.compute(TEMPLATE, OptionalLong.empty());
    String zero = PodTemplateHash.compute(TEMPLATE, OptionalLong.of(0));
    String one = PodTemplateHash.compute(TEMPLATE, OptionalLong.of(1));
    assertThat(plain).matches("[bcdfghjklmnpqrstvwxz2456789]+");
    assertThat(plain).isNotEqualTo(zero).isNotEqualTo(one);
    assertThat(zero).isNotEqualTo(one);
    MapValue labelled = (MapValue) io.apiserver4j.core.Nested.set(TEMPLATE,
        io.apiserver4j.core.Value.of(plain), "metadata", "labels", "pod-template-hash");
    assertThat(PodTemplateHash.equalIgnoreHash(TEMPLATE, labelled)).isTrue();
    assertThat(PodTemplateHash.compute(labelled, OptionalLong.empty())).isNotEqualTo(plain);
  }

  /**
   * {@code ComputeHash} step by step over {@link #TEMPLATE}: (1) go-spew's {@code %#v} of the
   * template (checked against go-spew's rules above; 3,819 bytes); (2) FNV-32a over those bytes,
   * from the offset basis 0x811c9dc5, is 0x81fe752c; (3) with a collision count of 1 the hasher
   * goes on over {@code binary.LittleEndian.PutUint32} into 8 bytes, 01 00 00 00 00 00 00 00,
   * giving 0xee55cdcd; (4) {@code fmt.Sprint(Sum32())} writes it in decimal, 2180937004 and
   * 3998600653; (5) {@code SafeEncodeString} maps each digit's code onto its alphabet ('0' is
   * 48, 48 mod 27 = 21, "4"; '1' is "5", ...). Steps 2 to 5 were computed apart from this code,
   * from Go's hash/fnv and rand.SafeEncodeString definitions.
   */
  @Test
  void computeHashStepByStep() {
    byte[] printed = PodTemplateHash.print(TEMPLATE).getBytes(StandardCharsets.UTF_8);
    assertThat(printed).hasSize(3819);
    int h = PodTemplateHash.fnv32a(0x811c9dc5, printed);
    assertThat(Integer.toHexString(h)).isEqualTo("81fe752c");
    assertThat(Integer.toHexString(PodTemplateHash.fnv32a(h, new byte[] {1, 0, 0, 0, 0, 0, 0,
        0}))).isEqualTo("ee55cdcd");
    assertThat(PodTemplateHash.safeEncode("2180937004")).isEqualTo("65d4f7c448");
    assertThat(PodTemplateHash.compute(TEMPLATE, OptionalLong.empty())).isEqualTo("65d4f7c448");
    assertThat(PodTemplateHash.compute(TEMPLATE, OptionalLong.of(1))).isEqualTo("7ffdb44b97");
  }

  /** Quantity.String() of a parsed quantity: the form the server stores. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "1000m, 1",
      "0.5, 500m",
      "1500m, 1500m",
      "1000, 1k",
      "1536, 1536",
      "1024Mi, 1Gi",
      "2048Ki, 2Mi",
      "512Ki, 512Ki",
      "100Mi, 100Mi",
      "1e3, 1e3",
      "0m, 0",
  })
  void canonicalQuantity(String in, String canonical) {
    assertThat(PodTemplateHash.ParsedQuantity.canonical(in)).isEqualTo(canonical);
  }

  /** ParseQuantity's int64 form; the cached string only for canonical input. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "0, 0, 0, 0, DecimalSI",
      "100m, 100, -3, 100m, DecimalSI",
      "1, 1, 0, 1, DecimalSI",
      "1k, 1, 3, 1k, DecimalSI",
      "1000, 1000, 0, '', DecimalSI",
      "1.5, 15, -1, '', DecimalSI",
      "1Gi, 1073741824, 0, 1Gi, BinarySI",
      "8Gi, 8589934592, 0, '', BinarySI",
      "128Mi, 134217728, 0, '', BinarySI",
      "1e3, 1, 3, 1e3, DecimalExponent",
  })
  void parseQuantity(String in, long value, int scale, String cached, String format) {
    assertThat(PodTemplateHash.ParsedQuantity.parse(in)).isEqualTo(
        new PodTemplateHash.ParsedQuantity(value, scale, cached, format));
  }
}
