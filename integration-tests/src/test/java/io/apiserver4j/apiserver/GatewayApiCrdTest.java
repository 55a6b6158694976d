/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiextensions.CaseFiles;
import io.apiserver4j.apiextensions.CrdValidator;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Gateway API's CRDs (kubernetes-sigs/gateway-api v1.6.1, config/crd/standard and
 * config/crd/experimental, unmodified; Apache-2.0, see NOTICE) as a cluster takes them: every CRD
 * of both channels is accepted through the API, and objects of their kinds are defaulted and
 * validated by the schemas and CEL rules, with the cases of the upstream repository's own CEL
 * tests (tests/cel, run there against a real kube-apiserver) and their expected messages.
 */
class GatewayApiCrdTest {
  private static final String DIR = "gateway-api-v1.6.1/";
  /** The CRD files of each channel (the VAP file beside them is no CRD). */
  private static final Map<String, List<String>> CHANNELS = Map.of(
      "standard", List.of("backendtlspolicies", "gatewayclasses", "gateways", "grpcroutes",
          "httproutes", "listenersets", "referencegrants", "tcproutes", "tlsroutes",
          "udproutes"),
      "experimental", List.of("backendtlspolicies", "gatewayclasses", "gateways", "grpcroutes",
          "httproutes", "listenersets", "referencegrants", "tcproutes", "tlsroutes",
          "udproutes", "x:xbackends", "x:xbackendtrafficpolicies", "x:xmeshes"));

  /** A server per channel with all its CRDs, shared by the object cases. */
  private static final Map<String, Fixtures> SERVERS = new HashMap<>();

  private final Fixtures f = new Fixtures();

  static String file(String channel, String entry) {
    String group = entry.startsWith("x:") ? "gateway.networking.x-k8s.io"
        : "gateway.networking.k8s.io";
    return channel + "/" + group + "_" + entry.substring(entry.indexOf(':') + 1) + ".yaml";
  }

  /** Parsed once: the largest is half a megabyte of YAML. */
  private static final Map<String, MapValue> PARSED =
      new java.util.concurrent.ConcurrentHashMap<>();

  static MapValue crd(String path) {
    return PARSED.computeIfAbsent(path, p -> {
      return (MapValue) yaml(Fixtures.sharedCrd(DIR + p));
    });
  }

  private static String entry(String channel, String plural) {
    return CHANNELS.get(channel).contains(plural) ? plural : "x:" + plural;
  }

  static Stream<Arguments> crdFiles() {
    return CHANNELS.entrySet().stream().flatMap(c -> c.getValue().stream()
        .map(e -> Arguments.of(c.getKey(), file(c.getKey(), e))));
  }

  @BeforeAll
  static void installChannels() {
    CHANNELS.forEach((channel, entries) -> {
      Fixtures server = new Fixtures();
      for (String e : entries) {
        ApiResponse r = server.create(CRDS, "", crd(file(channel, e)), "kubectl");
        assertThat(r.code()).as("%s %s", e, r.body()).isEqualTo(201);
      }
      SERVERS.put(channel, server);
    });
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("crdFiles")
  void everyCrdOfBothChannelsIsAccepted(String channel, String path) {
    MapValue crd = crd(path);
    assertThat(CrdValidator.validateDefinition(crd)).isEmpty();
    ApiResponse r = f.create(CRDS, "", crd, "kubectl");
    assertThat(r.code()).as("%s", r.body()).isEqualTo(201);
    // kube accepts the names and reports the CRD established
    MapValue got = f.get(CRDS, "", Nested.str(crd, "metadata", "name")).orThrow();
    assertThat(Nested.list(got, "status", "conditions")).anySatisfy(c -> {
      assertThat(Nested.str(c, "type")).isEqualTo("Established");
      assertThat(Nested.str(c, "status")).isEqualTo("True");
    });
    assertThat(Nested.str(got, "status", "acceptedNames", "kind"))
        .isEqualTo(Nested.str(crd, "spec", "names", "kind"));
  }

  /**
   * The install the Gateway API documents ({@code kubectl apply --server-side -f}), then an
   * upgrade to the experimental channel by the same field manager: both channels' CRDs applied.
   */
  @Test
  void bothChannelsCanBeServerSideApplied() {
    for (String channel : List.of("standard", "experimental")) {
      for (String entry : CHANNELS.get(channel)) {
        MapValue crd = crd(file(channel, entry));
        String name = Nested.str(crd, "metadata", "name");
        ApiResponse r = f.apply(CRDS, "", name, "kubectl", io.apiserver4j.core.Json.write(crd));
        assertThat(r.code()).as("%s %s", channel, r.body()).isIn(200, 201);
        assertThat(Nested.str(r.body(), "metadata", "annotations",
            "gateway.networking.k8s.io/channel")).isEqualTo(channel);
      }
    }
    // the experimental HTTPRoute fields are served after the upgrade
    ApiResponse route = f.create(resource("experimental", "httproutes"), "default", yaml("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: upgraded}
        spec:
          rules:
          - name: a
          - name: a
        """), "kubectl");
    assertThat(route.code()).isEqualTo(422);
    assertThat(route.failure().orElseThrow().message())
        .contains("Rule name must be unique within the route");
  }

  static Stream<Arguments> cases() {
    return CaseFiles.named("gateway-api/cel-cases.yaml");
  }

  /** The served kind and storage version of {@code plural} in a channel's CRDs. */
  private static GroupVersionResource resource(String channel, String plural) {
    MapValue crd = crd(file(channel, entry(channel, plural)));
    String version = "";
    for (Value v : Nested.list(crd, "spec", "versions")) {
      if (Nested.bool(v, "storage")) {
        version = Nested.str(v, "name");
      }
    }
    return new GroupVersionResource(Nested.str(crd, "spec", "group"), version, plural);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void upstreamCelCases(String name, MapValue c) {
    String channel = Nested.str(c, "channel");
    GroupVersionResource gvr = resource(channel, Nested.str(c, "resource"));
    MapValue crd = crd(file(channel, entry(channel, gvr.resource())));
    MapValue object = MapValue.ofEntries(
        "apiVersion", Value.of(gvr.group() + "/" + gvr.version()),
        "kind", Value.of(Nested.str(crd, "spec", "names", "kind")),
        "metadata", MapValue.ofEntries("name", Value.of("case-" + Integer.toHexString(
            name.hashCode() & 0x7fffffff))),
        "spec", c.getOrNull("spec"));

    String namespace = Nested.str(crd, "spec", "scope").equals("Namespaced") ? "default" : "";
    ApiResponse r = SERVERS.get(channel).create(gvr, namespace, object, "test");

    List<String> wanted = Nested.list(c, "wantErrors").stream()
        .map(v -> ((StringValue) v).value()).toList();
    if (wanted.isEmpty()) {
      assertThat(r.code()).as("%s", r.body()).isEqualTo(201);
      return;
    }
    assertThat(r.code()).as("%s", r.body()).isEqualTo(422);
    String message = r.failure().orElseThrow().message();
    for (String want : wanted) {
      assertThat(message).contains(want);
    }
    Value causes = c.getOrNull("causes");
    if (causes != null) {
      List<String> got = causes(r);
      for (Value want : ((ListValue) causes).items()) {
        assertThat(got).contains(((StringValue) want).value());
      }
    }
  }

  private static List<String> causes(ApiResponse r) {
    return r.failure().orElseThrow().causes().stream()
        .map(c -> c.field() + ": " + c.message()).toList();
  }

  @Test
  void gatewaysAreDefaulted() {
    GroupVersionResource gateways = resource("standard", "gateways");
    ApiResponse ok = SERVERS.get("standard").create(gateways, "default", yaml("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: gw}
        spec:
          gatewayClassName: example
          listeners:
          - {name: http, protocol: HTTP, port: 80}
        """), "kubectl");
    assertThat(ok.code()).as("%s", ok.body()).isEqualTo(201);
    MapValue listener = (MapValue) ((ListValue) at(ok.body(), "spec", "listeners")).get(0);
    // the CRD's defaults: allowedRoutes.namespaces.from Same
    assertThat(at(listener, "allowedRoutes", "namespaces", "from")).isEqualTo(Value.of("Same"));
  }

  @Test
  void theSameKindIsServedAtEveryServedVersion() {
    // experimental serves TLSRoute v1alpha2 too, converted with strategy None
    Fixtures experimental = SERVERS.get("experimental");
    GroupVersionResource v1 = resource("experimental", "tlsroutes");
    experimental.create(v1, "default", yaml("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: TLSRoute
        metadata: {name: versions}
        spec:
          hostnames: [example.com]
          rules:
          - backendRefs: [{name: svc, port: 443}]
        """), "kubectl").orThrow();
    MapValue old = experimental.get(new GroupVersionResource(v1.group(), "v1alpha2",
        "tlsroutes"), "default", "versions").orThrow();
    assertThat(Nested.str(old, "apiVersion")).isEqualTo("gateway.networking.k8s.io/v1alpha2");
    assertThat(Nested.list(old, "spec", "hostnames")).containsExactly(Value.of("example.com"));
  }
  private static MapValue routeWithMatches(String name, int rules, int matchesPerRule) {
    ListValue.Builder rs = ListValue.builder(rules);
    for (int r = 0; r < rules; r++) {
      ListValue.Builder ms = ListValue.builder(matchesPerRule);
      for (int m = 0; m < matchesPerRule; m++) {
        ms.add(MapValue.ofEntries("path", MapValue.ofEntries("type", Value.of("PathPrefix"),
            "value", Value.of("/"))));
      }
      rs.add(MapValue.ofEntries("matches", ms.build()));
    }
    return MapValue.ofEntries("apiVersion", Value.of("gateway.networking.k8s.io/v1"),
        "kind", Value.of("HTTPRoute"), "metadata", MapValue.ofEntries("name", Value.of(name)),
        "spec", MapValue.ofEntries("rules", rs.build()));
  }

  /** httproute_test.go's "too many matches and rules" and "many matches and few rules". */
  @Test
  void aRouteHasAtMost128MatchesAcrossItsRules() {
    Fixtures standard = SERVERS.get("standard");
    GroupVersionResource routes = resource("standard", "httproutes");

    ApiResponse tooMany = standard.create(routes, "default", routeWithMatches("many", 7, 20),
        "test");

    assertThat(tooMany.code()).isEqualTo(422);
    assertThat(tooMany.failure().orElseThrow().message()).contains("total number of matches"
        + " across all rules in a route must be less than 128");
    assertThat(standard.create(routes, "default", routeWithMatches("few", 2, 48), "test").code())
        .isEqualTo(201);
  }

  private static final String SAFE_UPGRADES = "ValidatingAdmissionPolicy"
      + " 'safe-upgrades.gateway.networking.k8s.io' with binding"
      + " 'safe-upgrades.gateway.networking.k8s.io' denied request: ";

  /**
   * The channel's own ValidatingAdmissionPolicy (config/crd/standard/..._vap_safeupgrades.yaml)
   * judging CRD writes with its messages: experimental CRDs may not replace standard ones, and
   * bundles before v1.5.0 may not be installed.
   */
  @Test
  void theSafeUpgradesPolicyGuardsCrdWrites() throws IOException {
    String text = Fixtures.sharedCrd(DIR + "standard/gateway.networking.k8s.io_vap_safeupgrades.yaml");
    for (Value doc : io.apiserver4j.core.Yaml.readAll(text)) {
      String plural = Nested.str(doc, "kind").equals("ValidatingAdmissionPolicy")
          ? "validatingadmissionpolicies" : "validatingadmissionpolicybindings";
      f.create(new GroupVersionResource("admissionregistration.k8s.io", "v1", plural), "", doc,
          "kubectl").orThrow();
    }
    MapValue standard = crd(file("standard", "httproutes"));
    assertThat(f.create(CRDS, "", standard, "kubectl").code()).isEqualTo(201);

    // kubectl apply of the experimental channel on top: an update of the standard CRD
    String name = Nested.str(standard, "metadata", "name");
    String rv = Nested.str(f.get(CRDS, "", name).orThrow(), "metadata", "resourceVersion");
    MapValue experimental = Nested.set(crd(file("experimental", "httproutes")), Value.of(rv),
        "metadata", "resourceVersion");
    ApiResponse r = f.update(CRDS, "", name, experimental, "kubectl");
    assertThat(r.code()).as("%s", r.body()).isEqualTo(422);
    assertThat(r.failure().orElseThrow().message()).endsWith(SAFE_UPGRADES + "Installing"
        + " experimental CRDs on top of standard channel CRDs is prohibited by default. Uninstall"
        + " ValidatingAdmissionPolicy safe-upgrades.gateway.networking.k8s.io to install"
        + " experimental CRDs on top of standard channel CRDs.");
    assertThat(Nested.str(f.get(CRDS, "", name).orThrow(), "metadata", "annotations",
        "gateway.networking.k8s.io/channel")).isEqualTo("standard");

    // a bundle before v1.5.0 is refused, a release candidate is not
    MapValue old = Nested.set(crd(file("standard", "tcproutes")), Value.of("v1.4.1"),
        "metadata", "annotations", "gateway.networking.k8s.io/bundle-version");
    ApiResponse refused = f.create(CRDS, "", old, "kubectl");
    assertThat(refused.code()).isEqualTo(422);
    assertThat(refused.failure().orElseThrow().message()).endsWith(SAFE_UPGRADES + "Installing"
        + " CRDs with version before v1.5.0 is prohibited by default. Uninstall"
        + " ValidatingAdmissionPolicy safe-upgrades.gateway.networking.k8s.io to install older"
        + " versions.");
    MapValue candidate = Nested.set(old, Value.of("v1.4.0-rc.1"), "metadata", "annotations",
        "gateway.networking.k8s.io/bundle-version");
    assertThat(f.create(CRDS, "", candidate, "kubectl").code()).isEqualTo(201);
  }
}
