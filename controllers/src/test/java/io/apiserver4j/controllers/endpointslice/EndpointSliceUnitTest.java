/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.internal.EndpointSliceTracker;
import io.apiserver4j.controllers.internal.EndpointSliceWriter;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tables of kube's k8s.io/endpointslice utils_test.go (TestPodToEndpoint, TestGetEndpointPorts,
 * TestSupportedServiceAddressType) and reconciler_test.go (TestReconcile1Pod,
 * TestReconcileManyPods, TestReconcileEndpointSlicesSomePreexisting placeholder handling),
 * run on the reconciler with a recording writer.
 */
class EndpointSliceUnitTest {
  private static final String SVC = "{\"metadata\":{\"name\":\"foo\",\"namespace\":\"test\","
      + "\"uid\":\"svc-uid\"},\"spec\":{\"selector\":{\"foo\":\"bar\"},\"clusterIP\":"
      + "\"1.1.1.1\",\"ipFamilies\":[\"IPv4\"],\"ports\":[{\"name\":\"foo\",\"port\":80,"
      + "\"targetPort\":80,\"protocol\":\"TCP\"}]%s}}";

  /** kube's newPod(1, ns, ready, 1, terminating): pod1 on node-1 with IP 1.2.3.5. */
  private static MapValue pod(boolean ready, boolean terminating, String extraSpec,
      String ips) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"pod1\",\"namespace\":\"test\","
        + "\"uid\":\"pod1-uid\",\"labels\":{\"foo\":\"bar\"}"
        + (terminating ? ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"" : "")
        + "},\"spec\":{\"nodeName\":\"node-1\",\"containers\":[{\"name\":\"c\"}]" + extraSpec
        + "},\"status\":{\"phase\":\"Running\",\"podIP\":\"1.2.3.5\",\"podIPs\":" + ips
        + ",\"conditions\":[{\"type\":\"Ready\",\"status\":\"" + (ready ? "True" : "False")
        + "\"}]}}");
  }

  /** kube's TestPodToEndpoint. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Ready pod|true|false|false|false|false|1.2.3.5|true|true|false|",
      "Ready pod + publishNotReadyAddresses|true|false|true|false|false|1.2.3.5|true|true|false|",
      "Unready pod|false|false|false|false|false|1.2.3.5|false|false|false|",
      "Unready pod + publishNotReadyAddresses|false|false|true|false|false|1.2.3.5|true|false"
          + "|false|",
      "Ready pod + node labels|true|false|false|true|false|1.2.3.5|true|true|false"
          + "|us-central1-a",
      "Multi IP Ready pod + node labels|true|false|false|true|true|1.2.3.4|true|true|false"
          + "|us-central1-a",
      "Ready terminating pod|true|true|false|false|false|1.2.3.5|false|true|true|",
      "Not ready terminating pod|false|true|false|false|false|1.2.3.5|false|false|true|",
  })
  void podToEndpoint(String name, boolean ready, boolean terminating, boolean publish,
      boolean node, boolean multiIp, String address, boolean eReady, boolean eServing,
      boolean eTerminating, String zone) {
    MapValue svc = (MapValue) Json.read(String.format(SVC,
        publish ? ",\"publishNotReadyAddresses\":true" : ""));
    String ips = multiIp ? "[{\"ip\":\"1.2.3.4\"},{\"ip\":\"1234::5678:0000:0000:9abc:def0\"}]"
        : "[{\"ip\":\"1.2.3.5\"}]";
    Optional<MapValue> n = node ? Optional.of((MapValue) Json.read("{\"metadata\":{\"name\":"
        + "\"node-1\",\"labels\":{\"topology.kubernetes.io/zone\":\"us-central1-a\","
        + "\"topology.kubernetes.io/region\":\"us-central1\"}}}")) : Optional.empty();
    MapValue ep = Reconciler.podToEndpoint(pod(ready, terminating, "", ips), n, svc, "IPv4");
    String expected = "{\"addresses\":[\"" + address + "\"],\"conditions\":{\"ready\":" + eReady
        + ",\"serving\":" + eServing + ",\"terminating\":" + eTerminating + "},"
        + (zone == null ? "" : "\"zone\":\"" + zone + "\",")
        + "\"nodeName\":\"node-1\",\"targetRef\":{\"kind\":\"Pod\",\"namespace\":\"test\","
        + "\"name\":\"pod1\",\"uid\":\"pod1-uid\"}}";
    assertThat(ep).isEqualTo(Json.read(expected));
  }

  @Test
  void podToEndpointWithHostname() {
    MapValue svc = (MapValue) Json.read(String.format(SVC, ""));
    MapValue ep = Reconciler.podToEndpoint(pod(true, false,
        ",\"subdomain\":\"foo\",\"hostname\":\"example-hostname\"", "[{\"ip\":\"1.2.3.5\"}]"),
        Optional.empty(), svc, "IPv4");
    assertThat(Nested.str(ep, "hostname")).isEqualTo("example-hostname");
  }

  /** kube's TestGetEndpointPorts: appProtocol carried, named ports resolved. */
  @Test
  void endpointPorts() {
    MapValue svc = (MapValue) Json.read("{\"spec\":{\"ports\":[{\"name\":\"http\",\"port\":80,"
        + "\"targetPort\":80,\"protocol\":\"TCP\"},{\"name\":\"https\",\"protocol\":\"TCP\","
        + "\"targetPort\":\"https\",\"appProtocol\":\"https\"}]}}");
    MapValue pod = (MapValue) Json.read("{\"spec\":{\"containers\":[{\"ports\":[{\"name\":"
        + "\"https\",\"containerPort\":443,\"protocol\":\"TCP\"}]}]}}");
    assertThat(Reconciler.endpointPorts(svc, pod)).containsExactly(
        (MapValue) Json.read("{\"name\":\"http\",\"port\":80,\"protocol\":\"TCP\"}"),
        (MapValue) Json.read("{\"name\":\"https\",\"port\":443,\"protocol\":\"TCP\","
            + "\"appProtocol\":\"https\"}"));
    MapValue custom = (MapValue) Json.read("{\"spec\":{\"ports\":[{\"name\":\"http\",\"port\":"
        + "80,\"targetPort\":80,\"protocol\":\"TCP\",\"appProtocol\":"
        + "\"example.com/custom-protocol\"}]}}");
    assertThat(Reconciler.endpointPorts(custom, (MapValue) Json.read("{\"spec\":{}}")))
        .containsExactly((MapValue) Json.read("{\"name\":\"http\",\"port\":80,\"protocol\":"
            + "\"TCP\",\"appProtocol\":\"example.com/custom-protocol\"}"));
  }

  /** kube's TestSupportedServiceAddressType. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "v4 service with no ip families|10.0.0.10||IPv4",
      "v6 service with no ip families|2000::1||IPv6",
      "v4 service||IPv4|IPv4",
      "v6 service||IPv6|IPv6",
      "v4,v6 service||IPv4 IPv6|IPv4 IPv6",
      "v6,v4 service||IPv6 IPv4|IPv6 IPv4",
      "headless with no families|None||IPv4 IPv6",
      "headless with families|None|IPv4 IPv6|IPv4 IPv6",
  })
  void supportedAddressTypes(String name, String clusterIp, String families, String expected) {
    MapValue.Builder spec = MapValue.builder();
    if (clusterIp != null) {
      spec.put("clusterIP", Value.of(clusterIp));
    }
    if (families != null) {
      spec.put("ipFamilies", io.apiserver4j.core.ListValue.ofStrings(
          List.of(families.split(" "))));
    }
    assertThat(Reconciler.addressTypes(MapValue.ofEntries("spec", spec.build())))
        .containsExactlyInAnyOrder(expected.split(" "));
  }

  /** A writer that names created slices as generateName would and records every call. */
  private static final class Recorder implements EndpointSliceWriter {
    final List<MapValue> created = new ArrayList<>();
    final List<MapValue> updated = new ArrayList<>();
    final List<MapValue> deleted = new ArrayList<>();
    private final AtomicInteger n = new AtomicInteger();

    @Override
    public MapValue create(MapValue slice) {
      int i = n.incrementAndGet();
      MapValue s = Meta.withMetaString(Meta.withMetaString(slice, "name",
          Meta.metaString(slice, "generateName") + i), "uid", "slice-" + i);
      created.add(s);
      return s;
    }

    @Override
    public MapValue update(MapValue slice) {
      updated.add(slice);
      return slice;
    }

    @Override
    public void delete(MapValue slice) {
      deleted.add(slice);
    }
  }

  private static MapValue podN(int i, boolean ready) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"pod" + i + "\",\"namespace\":"
        + "\"test\",\"uid\":\"u" + i + "\",\"labels\":{\"foo\":\"bar\"}},\"spec\":{\"nodeName\":"
        + "\"node-1\",\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Running\","
        + "\"podIPs\":[{\"ip\":\"10.0." + (i / 250) + "." + (i % 250 + 1) + "\"}],"
        + "\"conditions\":[{\"type\":\"Ready\",\"status\":\"" + (ready ? "True" : "False")
        + "\"}]}}");
  }

  private static Optional<MapValue> node(String name) {
    return Optional.of((MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\"}}"));
  }

  /** kube's TestReconcile1Pod (IPv4): one slice, its labels, ports and endpoint. */
  @Test
  void reconcileOnePod() {
    Recorder w = new Recorder();
    Reconciler r = new Reconciler("endpointslice-controller.k8s.io", 100, w, new EndpointSliceTracker());
    MapValue svc = (MapValue) Json.read(String.format(SVC, ""));
    r.reconcile(svc, List.of(podN(1, true)), List.of(), EndpointSliceUnitTest::node,
        Optional.empty());
    assertThat(w.created).hasSize(1);
    MapValue slice = w.created.get(0);
    assertThat(Meta.labels(slice)).containsExactlyInAnyOrderEntriesOf(java.util.Map.of(
        "kubernetes.io/service-name", "foo",
        "endpointslice.kubernetes.io/managed-by", "endpointslice-controller.k8s.io"));
    assertThat(Nested.str(slice, "addressType")).isEqualTo("IPv4");
    assertThat(Nested.list(slice, "ports")).containsExactly(
        Json.read("{\"name\":\"foo\",\"port\":80,\"protocol\":\"TCP\"}"));
    assertThat(Nested.list(slice, "endpoints")).hasSize(1);
    assertThat(Meta.annotations(slice)).isEmpty();
  }

  /** kube's TestReconcileManyPods: 250 Pods in slices of 100, 100 and 50. */
  @Test
  void reconcileManyPods() {
    Recorder w = new Recorder();
    Reconciler r = new Reconciler("endpointslice-controller.k8s.io", 100, w, new EndpointSliceTracker());
    List<MapValue> pods = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      pods.add(podN(i, i % 2 == 0));
    }
    r.reconcile((MapValue) Json.read(String.format(SVC, "")), pods, List.of(),
        EndpointSliceUnitTest::node, Optional.empty());
    assertThat(w.created.stream().map(s -> Nested.list(s, "endpoints").size()))
        .containsExactly(100, 100, 50);
    assertThat(w.updated).isEmpty();
    assertThat(w.deleted).isEmpty();
  }

  /**
   * kube's placeholder rules: no Pods gives one empty slice; an existing placeholder is kept,
   * not deleted and recreated; a Pod then turns its deletion into an update of it.
   */
  @Test
  void placeholder() {
    MapValue svc = (MapValue) Json.read(String.format(SVC, ""));
    Recorder w = new Recorder();
    Reconciler r = new Reconciler("endpointslice-controller.k8s.io", 100, w, new EndpointSliceTracker());
    r.reconcile(svc, List.of(), List.of(), EndpointSliceUnitTest::node, Optional.empty());
    assertThat(w.created).hasSize(1);
    MapValue placeholder = w.created.get(0);
    assertThat(Nested.list(placeholder, "endpoints")).isEmpty();
    assertThat(Nested.has(placeholder, "ports")).isFalse();

    Recorder again = new Recorder();
    new Reconciler("endpointslice-controller.k8s.io", 100, again, new EndpointSliceTracker())
        .reconcile(svc, List.of(), List.of(placeholder), EndpointSliceUnitTest::node,
            Optional.empty());
    assertThat(again.created).isEmpty();
    assertThat(again.updated).isEmpty();
    assertThat(again.deleted).isEmpty();

    Recorder withPod = new Recorder();
    new Reconciler("endpointslice-controller.k8s.io", 100, withPod, new EndpointSliceTracker())
        .reconcile(svc, List.of(podN(1, true)), List.of(placeholder),
            EndpointSliceUnitTest::node, Optional.empty());
    assertThat(withPod.created).isEmpty();
    assertThat(withPod.deleted).isEmpty();
    assertThat(withPod.updated).hasSize(1);
    assertThat(Meta.metaString(withPod.updated.get(0), "name"))
        .isEqualTo(Meta.metaString(placeholder, "name"));
  }

  /** kube's getSliceToFill: the fullest slice that still fits. */
  @ParameterizedTest(name = "{0} endpoints into slices of {1}")
  @CsvSource({
      "5, '', -1",
      "5, '90 98', 0",
      "5, '94 95 96', 1",
      "50, '60 51 40', 2",
      "1, '99 99', 0",
  })
  void sliceToFill(int count, String sizes, int expected) {
    List<MapValue> slices = new ArrayList<>();
    if (!sizes.isEmpty()) {
      for (String s : sizes.split(" ")) {
        List<MapValue> eps = new ArrayList<>();
        for (int i = 0; i < Integer.parseInt(s); i++) {
          eps.add(MapValue.empty());
        }
        slices.add(MapValue.ofEntries("endpoints", io.apiserver4j.core.ListValue.of(eps)));
      }
    }
    MapValue got = Reconciler.sliceToFill(slices, count, 100);
    assertThat(got == null ? -1 : slices.indexOf(got)).isEqualTo(expected);
  }
}
