/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.kubeapi.ProtobufCodec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One server per release, 1.33 to 1.36, side by side in this JVM, each built with
 * {@link ApiServer.Builder#emulatedVersion}: kubectl lists exactly that release's table of
 * ../shared (api-versions/X/README.md, api/README.md for 1.36), resources of later releases are
 * 404, a Pod field added after the release is refused by strict field validation and pruned
 * with a warning, {@code /version} carries kube's emulation fields, and every round-trip fixture
 * of a served kind decodes by that release's types.
 */
class EmulatedVersionsTest {
  @TempDir
  static Path dir;
  private static final Map<KubeVersion, ApiServer> APIS = new EnumMap<>(KubeVersion.class);
  private static final Map<KubeVersion, HttpApiServer> HTTP = new EnumMap<>(KubeVersion.class);
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void startServers() {
    for (KubeVersion v : KubeVersion.all()) {
      // the ServiceAccount plugin would want a default ServiceAccount for every Pod
      ApiServer api = ApiServer.builder().emulatedVersion(v)
          .disableAdmissionPlugins("ServiceAccount").build();
      HttpApiServer http = HttpApiServer.builder(api).build();
      http.start();
      APIS.put(v, api);
      HTTP.put(v, http);
    }
  }

  @AfterAll
  static void stopServers() {
    HTTP.values().forEach(HttpApiServer::close);
    APIS.values().forEach(ApiServer::close);
  }

  private static HttpResponse<String> send(KubeVersion v, String method, String path,
      String body) throws Exception {
    URI base = HTTP.get(v).url();
    return HttpCalls.send(CLIENT, base, method, path, body == null ? null : "application/json",
        body);
  }

  @ParameterizedTest
  @EnumSource(KubeVersion.class)
  void kubectlListsExactlyTheReleasesTable(KubeVersion v) throws IOException {
    Path home = Files.createDirectories(dir.resolve("kubectl-" + v));
    Kubectl kubectl = new Kubectl(home, HTTP.get(v).kubeconfig().build());
    Map<String, KubectlApiResourcesTest.Line> actual =
        KubectlApiResourcesTest.apiResources(kubectl);
    Map<String, KubectlApiResourcesTest.Line> expected =
        KubectlApiResourcesTest.expected(Kube136Table.rows(v));
    // the README counts: 61, 66, 66 and 68 resources; kubectl shows autoscaling once
    assertThat(expected).hasSize(switch (v) {
      case V1_33 -> 60;
      case V1_34, V1_35 -> 65;
      case V1_36 -> 67;
    });
    assertThat(actual).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(KubeVersion.class)
  void versionCarriesTheEmulationFields(KubeVersion v) throws Exception {
    HttpResponse<String> r = send(v, "GET", "/version", null);
    assertThat(r.statusCode()).isEqualTo(200);
    MapValue info = (MapValue) Json.read(r.body());
    // component-base's effectiveVersion.Info: binary major/minor, emulation, emulation - 1
    assertThat(info.getOrNull("major")).isEqualTo(Value.of("1"));
    assertThat(info.getOrNull("minor")).isEqualTo(Value.of("36"));
    assertThat(info.getOrNull("gitVersion")).isEqualTo(Value.of("v1.36.0"));
    assertThat(info.getOrNull("emulationMajor")).isEqualTo(Value.of("1"));
    assertThat(info.getOrNull("emulationMinor")).isEqualTo(Value.of(
        Integer.toString(v.minor())));
    assertThat(info.getOrNull("minCompatibilityMajor")).isEqualTo(Value.of("1"));
    assertThat(info.getOrNull("minCompatibilityMinor")).isEqualTo(Value.of(
        Integer.toString(v.minor() - 1)));
    assertThat(APIS.get(v).kubernetesVersion()).isEqualTo(v);
  }

  /** Resources a release does not have answer as any resource the server does not serve. */
  @Test
  void resourcesOfLaterReleasesAreNotFound() throws Exception {
    HttpResponse<String> unknown = send(KubeVersion.V1_36, "GET",
        "/apis/admissionregistration.k8s.io/v1/nosuchresources", null);
    assertThat(unknown.statusCode()).isEqualTo(404);
    HttpResponse<String> map = send(KubeVersion.V1_35, "GET",
        "/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies", null);
    assertThat(map.statusCode()).isEqualTo(404);
    assertThat(map.body()).isEqualTo(unknown.body());
    assertThat(send(KubeVersion.V1_36, "GET",
        "/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies", null).statusCode())
        .isEqualTo(200);
    // resource.k8s.io/v1 is not served by 1.33 at all: its group version is unknown
    HttpResponse<String> claims = send(KubeVersion.V1_33, "GET",
        "/apis/resource.k8s.io/v1/resourceclaims", null);
    HttpResponse<String> noGroup = send(KubeVersion.V1_36, "GET",
        "/apis/nosuchgroup.k8s.io/v1/things", null);
    assertThat(claims.statusCode()).isEqualTo(404);
    assertThat(claims.body()).isEqualTo(noGroup.body());
    assertThat(send(KubeVersion.V1_34, "GET", "/apis/resource.k8s.io/v1/resourceclaims", null)
        .statusCode()).isEqualTo(200);
    assertThat(send(KubeVersion.V1_33, "GET", "/apis/storage.k8s.io/v1/volumeattributesclasses",
        null).statusCode()).isEqualTo(404);
    MapValue groups = (MapValue) Json.read(send(KubeVersion.V1_33, "GET", "/apis", null).body());
    assertThat(Json.write(groups)).doesNotContain("resource.k8s.io");
  }

  /**
   * A PodSpec field the release does not have (from the releases' SMD schemas: hostnameOverride
   * came in 1.34, workloadRef in 1.35, schedulingGroup in 1.36; 1.36 gets a field of no
   * release): refused with kube's strict decoding error, pruned with a warning under Warn.
   */
  static Stream<Arguments> laterFields() {
    return Stream.of(Arguments.of(KubeVersion.V1_33, "hostnameOverride"),
        Arguments.of(KubeVersion.V1_34, "workloadRef"),
        Arguments.of(KubeVersion.V1_35, "schedulingGroup"),
        Arguments.of(KubeVersion.V1_36, "notAFieldOfAnyRelease"));
  }

  @ParameterizedTest
  @MethodSource("laterFields")
  void aFieldAddedAfterTheReleaseIsRefusedOrPruned(KubeVersion v, String field)
      throws Exception {
    String name = "later-" + v.minor();
    String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}],\"" + field
        + "\":{}}}";
    HttpResponse<String> strict = send(v, "POST",
        "/api/v1/namespaces/default/pods?fieldValidation=Strict", pod);
    assertThat(strict.statusCode()).as(strict.body()).isEqualTo(400);
    MapValue status = (MapValue) Json.read(strict.body());
    assertThat(status.getOrNull("reason")).isEqualTo(Value.of("BadRequest"));
    assertThat(status.getOrNull("message")).isEqualTo(Value.of("Pod in version \"v1\" cannot"
        + " be handled as a Pod: strict decoding error: unknown field \"spec." + field + "\""));

    HttpResponse<String> warned = send(v, "POST",
        "/api/v1/namespaces/default/pods?fieldValidation=Warn", pod);
    assertThat(warned.statusCode()).as(warned.body()).isEqualTo(201);
    assertThat(warned.headers().allValues("Warning"))
        .containsExactly("299 - \"unknown field \\\"spec." + field + "\\\"\"");
    MapValue created = (MapValue) Json.read(send(v, "GET",
        "/api/v1/namespaces/default/pods/" + name, null).body());
    assertThat(((MapValue) created.getOrNull("spec")).containsKey(field)).isFalse();
  }

  /**
   * Protobuf bodies are the release's messages: a 1.36 client's Pod with hostnameOverride (a
   * field 1.33 does not have) reaches a 1.33 server without it, as kube's generated protobuf
   * decoding skips unknown field numbers (strict field validation concerns JSON and YAML), and
   * the answer decodes with 1.33's messages; a 1.35 server keeps the field. A 1.34 server knows
   * the field but drops it, as kube's dropDisabledFields does while its gate, HostnameOverride,
   * is alpha and off (on by default from 1.35).
   */
  @Test
  void protobufBodiesAreTheReleasesMessages() throws Exception {
    MapValue pod = (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"metadata\":{\"name\":\"proto\"},\"spec\":{\"containers\":[{\"name\":\"c\","
        + "\"image\":\"busybox\"}],\"hostnameOverride\":\"h\"}}");
    byte[] body = ProtobufCodec.builtIn(KubeVersion.V1_36).encode(pod);
    for (KubeVersion v : List.of(KubeVersion.V1_33, KubeVersion.V1_34, KubeVersion.V1_35)) {
      HttpResponse<byte[]> r = CLIENT.send(HttpRequest.newBuilder(HTTP.get(v).url().resolve(
              "/api/v1/namespaces/default/pods?fieldValidation=Strict&dryRun=All"))
          .header("Content-Type", ProtobufCodec.MEDIA_TYPE)
          .header("Accept", ProtobufCodec.MEDIA_TYPE)
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertThat(r.statusCode()).as(v + ": " + new String(r.body(),
          java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(201);
      MapValue created = ProtobufCodec.builtIn(v).decode(r.body());
      assertThat(((MapValue) created.getOrNull("spec")).containsKey("hostnameOverride"))
          .as(v.toString()).isEqualTo(v == KubeVersion.V1_35);
    }
  }

  /** The same Pod is refused by a 1.33 server and kept by the 1.34 one beside it. */
  @Test
  void twoReleasesSideBySide() throws Exception {
    String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"side\"},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}],"
        + "\"hostnameOverride\":\"h\"}}";
    String path = "/api/v1/namespaces/default/pods?fieldValidation=Strict&dryRun=All";
    assertThat(send(KubeVersion.V1_33, "POST", path, pod).statusCode()).isEqualTo(400);
    HttpResponse<String> r134 = send(KubeVersion.V1_34, "POST", path, pod);
    assertThat(r134.body()).doesNotContain("unknown field");
    assertThat(APIS.get(KubeVersion.V1_33).registry().all()).hasSize(61);
    assertThat(APIS.get(KubeVersion.V1_34).registry().all()).hasSize(66);
  }

  /**
   * Each release's OpenAPI v2 document is that release's: ResourceClaim v1 only from 1.34, and
   * the PodSpec properties of the release.
   */
  @Test
  void openApiIsTheReleases() throws Exception {
    MapValue v133 = (MapValue) Json.read(send(KubeVersion.V1_33, "GET", "/openapi/v2", null)
        .body());
    MapValue v134 = (MapValue) Json.read(send(KubeVersion.V1_34, "GET", "/openapi/v2", null)
        .body());
    MapValue defs133 = (MapValue) v133.getOrNull("definitions");
    MapValue defs134 = (MapValue) v134.getOrNull("definitions");
    assertThat(defs133.containsKey("io.k8s.api.resource.v1.ResourceClaim")).isFalse();
    assertThat(defs134.containsKey("io.k8s.api.resource.v1.ResourceClaim")).isTrue();
    assertThat(Nested.getOrNull(defs133, "io.k8s.api.core.v1.PodSpec", "properties",
        "hostnameOverride")).isNull();
    assertThat(Nested.getOrNull(defs134, "io.k8s.api.core.v1.PodSpec", "properties",
        "hostnameOverride")).isNotNull();
    MapValue core133 = (MapValue) Json.read(send(KubeVersion.V1_33, "GET",
        "/openapi/v3/api/v1", null).body());
    assertThat(Nested.getOrNull(core133, "components", "schemas", "io.k8s.api.core.v1.PodSpec",
        "properties", "hostnameOverride")).isNull();
    assertThat(Nested.getOrNull(core133, "components", "schemas", "io.k8s.api.core.v1.PodSpec",
        "properties", "containers")).isNotNull();
  }

  /**
   * Every round-trip fixture (kube's fully populated objects) of a kind the release serves
   * decodes by the release's own types: a strict dry-run create is never refused for an unknown
   * field (the fixtures' nonsense values may still be invalid, a later stage).
   */
  static Stream<Arguments> fixtures() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (KubeVersion v : KubeVersion.all()) {
      Set<String> served = new TreeSet<>();
      for (Kube136Table.Row r : Kube136Table.rows(v)) {
        served.add(r.apiVersion() + " " + r.kind());
      }
      Path dirOf = v == KubeVersion.latest() ? Kube136Table.shared().resolve("api/roundtrip")
          : Kube136Table.shared().resolve("api-versions/" + v + "/roundtrip");
      try (Stream<Path> files = Files.list(dirOf)) {
        for (Path p : files.sorted().toList()) {
          MapValue fixture = (MapValue) Json.read(Files.readAllBytes(p));
          if (fixture.getOrNull("apiVersion") instanceof StringValue av
              && fixture.getOrNull("kind") instanceof StringValue k
              && served.contains(av.value() + " " + k.value())) {
            out.add(Arguments.of(v, p.getFileName().toString()));
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("fixtures")
  void everyFixtureDecodesByItsReleasesTypes(KubeVersion v, String file) throws Exception {
    Path p = (v == KubeVersion.latest() ? Kube136Table.shared().resolve("api/roundtrip")
        : Kube136Table.shared().resolve("api-versions/" + v + "/roundtrip")).resolve(file);
    MapValue fixture = (MapValue) Json.read(Files.readAllBytes(p));
    String apiVersion = ((StringValue) fixture.getOrNull("apiVersion")).value();
    String kind = ((StringValue) fixture.getOrNull("kind")).value();
    Kube136Table.Row row = Kube136Table.rows(v).stream()
        .filter(r -> r.apiVersion().equals(apiVersion) && r.kind().equals(kind)).findFirst()
        .orElseThrow();
    String prefix = row.group().isEmpty() ? "/api/v1" : "/apis/" + row.apiVersion();
    MapValue meta = (MapValue) fixture.getOrNull("metadata");
    String path = prefix + (row.namespaced() ? "/namespaces/default" : "") + "/"
        + row.plural() + "?dryRun=All&fieldValidation=Strict";
    MapValue body = fixture.with("metadata", meta.with("namespace", Value.of("default"))
        .without("resourceVersion").without("uid").without("creationTimestamp")
        .without("deletionTimestamp").without("deletionGracePeriodSeconds")
        .without("managedFields").without("generateName").with("name", Value.of("fixture")));
    if (!row.namespaced()) {
      body = body.with("metadata", ((MapValue) body.getOrNull("metadata")).without("namespace"));
    }
    HttpResponse<String> r = send(v, "POST", path, Json.write(body));
    assertThat(r.body()).as("%s %s", v, file).doesNotContain("unknown field")
        .doesNotContain("strict decoding error");
    MapValue answer = (MapValue) Json.read(r.body());
    if (r.statusCode() == 500) {
      // only as kube's ErrorToAPIStatus words a plain error (pods/binding's validation): no
      // reason, never an InternalError of ours
      assertThat(answer.getOrNull("reason")).as("%s %s: %s", v, file, r.body()).isNull();
    } else if (r.statusCode() == 201) {
      assertThat(answer.getOrNull("kind")).isEqualTo(Value.of(kind));
    }
  }

  @Test
  void discoveryDocumentsCarryTheReleasesStorageVersionHashes() throws Exception {
    // 1.33 stored IPAddresses at networking.k8s.io/v1beta1 (emulation: v1 came in 1.33)
    MapValue networking133 = (MapValue) Json.read(send(KubeVersion.V1_33, "GET",
        "/apis/networking.k8s.io/v1", null).body());
    MapValue networking136 = (MapValue) Json.read(send(KubeVersion.V1_36, "GET",
        "/apis/networking.k8s.io/v1", null).body());
    // base64(sha256("networking.k8s.io/v1beta1/IPAddress")[:8]), kube's StorageVersionHash
    assertThat(hash(networking133, "ipaddresses")).isEqualTo(Value.of(hashOf(
        "networking.k8s.io/v1beta1/IPAddress")));
    assertThat(hash(networking136, "ipaddresses")).isEqualTo(Value.of(hashOf(
        "networking.k8s.io/v1/IPAddress")));
    assertThat(hash(networking133, "networkpolicies")).isEqualTo(hash(networking136,
        "networkpolicies"));
  }

  private static String hashOf(String groupVersionKind) throws Exception {
    byte[] sum = java.security.MessageDigest.getInstance("SHA-256")
        .digest(groupVersionKind.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(sum, 8));
  }

  private static Value hash(MapValue list, String resource) {
    for (Value r : ((ListValue) list.getOrNull("resources")).items()) {
      if (((MapValue) r).getOrNull("name").equals(Value.of(resource))) {
        return ((MapValue) r).getOrNull("storageVersionHash");
      }
    }
    throw new AssertionError(resource);
  }
}
