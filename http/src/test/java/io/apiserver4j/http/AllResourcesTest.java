/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiserver4j.apiserver.ApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every resource a kube-apiserver 1.36 serves, through the HTTP front with the real fabric8
 * client: discovery as 1.36's, the verbs it lacks answered 405, and — for the resources that
 * store objects — create, get, list by label and by field, watch, update, the four patch types
 * and delete, with the table columns of kube's printers. Review resources are posted. One server
 * serves every case.
 */
class AllResourcesTest {
  private static final String NS = "all-resources";
  private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> ALL_VERBS = List.of("get", "list", "watch", "create",
      "update", "patch", "delete", "deletecollection");

  static ApiServer api;
  static HttpApiServer http;
  static KubernetesClient client;
  static HttpClient raw;
  static Map<String, Map<String, Object>> manifests;

  @BeforeAll
  static void start() throws IOException {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(http.url().toString())
        .withNamespace(NS).withRequestTimeout(10_000).build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    raw = HttpClient.newHttpClient();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
        .endMetadata().build()).create();
    manifests = new HashMap<>();
    try (InputStream in = AllResourcesTest.class.getResourceAsStream("all-resources.yaml")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String doc : text.split("(?m)^---$")) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = Serialization.unmarshal(doc, Map.class);
        manifests.put(m.get("apiVersion") + " " + m.get("kind"), m);
      }
    }
  }

  @AfterAll
  static void stop() {
    client.close();
    http.close();
    api.close();
  }

  static Stream<Kube136Table.Row> resources() {
    return Kube136Table.rows().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("resources")
  void servesTheResourceAsKube136(Kube136Table.Row row) throws Exception {
    assertDiscovery(row);
    assertMissingVerbsAre405(row);
    if (row.verbs().equals(new TreeSet<>(List.of("create")))) {
      assertPosted(row);
    } else if (!row.verbs().contains("create")) {
      // componentstatuses: read-only
      assertThat(ops(row).list().getItems()).isNotNull();
      assertThat(tableColumns(row, "")).isEqualTo(COLUMNS.get(key(row)));
    } else {
      assertLifecycle(row);
    }
  }

  // --- discovery ---------------------------------------------------------------------------

  /**
   * The resources whose discovery file predates kube 1.36's storage version (the ExpectedGVKs of
   * kube's test/integration/etcd/data.go at 1.36): EndpointSlices are stored at
   * discovery.k8s.io/v1, MutatingAdmissionPolicies and their bindings at v1beta1. Their hash is
   * kube's StorageVersionHash of that group-version-kind.
   */
  private static final Map<String, String> STORAGE_GVK_1_36 = Map.of(
      "endpointslices", "discovery.k8s.io/v1/EndpointSlice",
      "mutatingadmissionpolicies",
      "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy",
      "mutatingadmissionpolicybindings",
      "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding");

  private static JsonNode storageVersionHash(String groupVersionKind) throws Exception {
    byte[] sum = java.security.MessageDigest.getInstance("SHA-256")
        .digest(groupVersionKind.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return com.fasterxml.jackson.databind.node.TextNode.valueOf(
        java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(sum, 8)));
  }

  private static void assertDiscovery(Kube136Table.Row row) throws Exception {
    String path = row.group().isEmpty() ? "/api/v1" : "/apis/" + row.apiVersion();
    JsonNode served = find(JSON.readTree(get(path, "application/json").body()), row.plural());
    String file = row.group().isEmpty() ? "api__v1.json"
        : "apis__" + row.group() + "__" + row.version() + ".json";
    JsonNode expected = find(JSON.readTree(Files.readString(Kube136Table.shared()
        .resolve("api/discovery").resolve(file))), row.plural());
    assertThat(served).as("discovery of %s", row).isNotNull();
    for (String field : List.of("name", "singularName", "namespaced", "kind", "shortNames",
        "categories", "storageVersionHash")) {
      JsonNode want = field.equals("storageVersionHash")
          && STORAGE_GVK_1_36.containsKey(row.plural())
          ? storageVersionHash(STORAGE_GVK_1_36.get(row.plural())) : expected.get(field);
      assertThat(served.get(field)).as("%s of %s", field, row).isEqualTo(want);
    }
    assertThat(sorted(served.get("verbs"))).as("verbs of %s", row)
        .isEqualTo(sorted(expected.get("verbs"))).isEqualTo(row.verbs());
  }

  private static JsonNode find(JsonNode resourceList, String plural) {
    for (JsonNode r : resourceList.get("resources")) {
      if (r.get("name").asText().equals(plural)) {
        return r;
      }
    }
    return null;
  }

  private static TreeSet<String> sorted(JsonNode array) {
    TreeSet<String> out = new TreeSet<>();
    array.forEach(v -> out.add(v.asText()));
    return out;
  }

  // --- verbs the resource does not have ------------------------------------------------------

  private static void assertMissingVerbsAre405(Kube136Table.Row row) throws Exception {
    String collection = collectionPath(row);
    String item = collection + "/absent";
    for (String verb : ALL_VERBS) {
      if (row.verbs().contains(verb)) {
        continue;
      }
      HttpRequest.Builder b = switch (verb) {
        case "get" -> HttpRequest.newBuilder(uri(item)).GET();
        case "list" -> HttpRequest.newBuilder(uri(collection)).GET();
        case "watch" -> HttpRequest.newBuilder(uri(collection + "?watch=true")).GET();
        case "create" -> HttpRequest.newBuilder(uri(collection))
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .header("Content-Type", "application/json");
        case "update" -> HttpRequest.newBuilder(uri(item))
            .PUT(HttpRequest.BodyPublishers.ofString("{}"))
            .header("Content-Type", "application/json");
        case "patch" -> HttpRequest.newBuilder(uri(item))
            .method("PATCH", HttpRequest.BodyPublishers.ofString("{}"))
            .header("Content-Type", "application/merge-patch+json");
        case "delete" -> HttpRequest.newBuilder(uri(item)).DELETE();
        default -> HttpRequest.newBuilder(uri(collection)).DELETE();
      };
      HttpResponse<String> r = raw.send(b.header("Accept", "application/json").build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as("%s of %s: %s", verb, row, r.body()).isEqualTo(405);
      JsonNode status = JSON.readTree(r.body());
      assertThat(status.get("reason").asText()).isEqualTo("MethodNotAllowed");
      assertThat(status.get("message").asText())
          .isEqualTo("the server does not allow this method on the requested resource");
    }
  }

  // --- review resources and bindings: posted, nothing to read back ---------------------------

  private static void assertPosted(Kube136Table.Row row) {
    Map<String, Object> manifest = manifest(row);
    if (row.plural().equals("bindings")) {
      // a Binding binds a pod to a node (what pods/binding does)
      client.pods().inNamespace(NS).resource(Serialization.unmarshal("""
          {"apiVersion":"v1","kind":"Pod","metadata":{"name":"bound-pod"},
           "spec":{"containers":[{"name":"main","image":"nginx"}]}}""",
          io.fabric8.kubernetes.api.model.Pod.class)).create();
    }
    GenericKubernetesResource answer = ops(row).resource(resource(manifest)).create();
    if (row.plural().equals("bindings")) {
      // kube's BindingREST answers a Success Status
      assertThat(answer.getKind()).isEqualTo("Status");
      assertThat(answer.getAdditionalProperties()).containsEntry("status", "Success");
      assertThat(client.pods().inNamespace(NS).withName("bound-pod").get().getSpec()
          .getNodeName()).isEqualTo("node-a");
    } else {
      assertThat(answer.getKind()).isEqualTo(row.kind());
      assertThat(answer.getAdditionalProperties()).containsKey("status");
    }
  }

  // --- the life of an object -----------------------------------------------------------------

  private static void assertLifecycle(Kube136Table.Row row) throws Exception {
    Map<String, Object> manifest = manifest(row);
    GenericKubernetesResource object = resource(manifest);
    String name = object.getMetadata().getName();
    object.getMetadata().setLabels(new LinkedHashMap<>(Map.of("res", row.plural())));
    var ops = ops(row);

    // The fabric8 watch is opened before the create, so that its ADDED is a live event, sent only
    // once the client is ready. A watch opened after the create starts with the synthetic ADDED,
    // which the server writes right after the WebSocket handshake; fabric8's Vert.x client lost it
    // about once in four runs although the server had written it (traced): vertx 4.5's
    // HttpClientBase.webSocket resumes the socket before fabric8 sets its message handlers, and a
    // frame that arrives in between is dropped. The synthetic ADDED is checked over HTTP below.
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    GenericKubernetesResource created;
    GenericKubernetesResource got;
    try (Watch w = ops.withName(name).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, GenericKubernetesResource resource) {
        events.add(action + " " + resource.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {
        events.add("CLOSED " + cause);
      }
    })) {
      created = ops.resource(object).create();
      assertThat(created.getMetadata().getUid()).isNotEmpty();
      assertThat(created.getKind()).isEqualTo(row.kind());
      assertThat(created.getApiVersion()).isEqualTo(row.apiVersion());

      // (not the same resourceVersion for all: controllers write the status of CRDs and
      // APIServices right after they are created, as in kube)
      got = ops.withName(name).get();
      assertThat(got.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
      assertThat(got.getMetadata().getLabels()).containsEntry("res", row.plural());

      assertThat(ops.withLabel("res", row.plural()).list().getItems())
          .extracting(o -> o.getMetadata().getName()).containsExactly(name);
      assertThat(ops.withField("metadata.name", name).list().getItems())
          .extracting(o -> o.getMetadata().getName()).containsExactly(name);
      assertThat(ops.withField("metadata.name", "other").list().getItems()).isEmpty();

      // a bound on the wait for the event, not a timing assertion
      assertThat(events.poll(30, TimeUnit.SECONDS)).as("first watch event of %s", row)
          .isEqualTo("ADDED " + name);
    }
    assertThat(firstWatchEvent(row, name)).as("initial event of a watch of %s", row)
        .isEqualTo("ADDED " + name);

    assertThat(tableColumns(row, "res=" + row.plural())).as("table columns of %s", row)
        .isEqualTo(COLUMNS.get(key(row)));

    got.getMetadata().getLabels().put("updated", "true");
    GenericKubernetesResource updated = ops.resource(got).update();
    assertThat(updated.getMetadata().getLabels()).containsEntry("updated", "true");

    Resource<GenericKubernetesResource> one = ops.withName(name);
    assertThat(one.patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"merge\":\"yes\"}}}").getMetadata().getAnnotations())
        .containsEntry("merge", "yes");
    assertThat(one.patch(PatchContext.of(PatchType.JSON),
        "[{\"op\":\"add\",\"path\":\"/metadata/annotations/json\",\"value\":\"yes\"}]")
        .getMetadata().getAnnotations()).containsEntry("json", "yes");
    assertThat(one.patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
        "{\"metadata\":{\"annotations\":{\"strategic\":\"yes\"}}}").getMetadata()
        .getAnnotations()).containsEntry("strategic", "yes").containsEntry("merge", "yes");
    GenericKubernetesResource config = resource(manifest);
    config.getMetadata().setLabels(Map.of("res", row.plural()));
    config.getMetadata().setAnnotations(Map.of("applied", "yes"));
    GenericKubernetesResource applied = ops.resource(config).fieldManager("all-resources")
        .forceConflicts().serverSideApply();
    assertThat(applied.getMetadata().getAnnotations()).containsEntry("applied", "yes")
        .containsEntry("json", "yes");
    assertThat(applied.getMetadata().getManagedFields())
        .anySatisfy(m -> assertThat(m.getManager()).isEqualTo("all-resources"));

    ops.withName(name).delete();
    // claims and volumes carry kube's protection finalizer (StorageObjectInUseProtection): their
    // controllers remove it after the delete, so wait for it as kubectl delete does
    ops.withName(name).waitUntilCondition(java.util.Objects::isNull, 30,
        java.util.concurrent.TimeUnit.SECONDS);
    assertThat(ops.withName(name).get()).as("%s after delete", row).isNull();
    assertThatThrownBy(() -> ops.withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{}")).isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(404));
  }

  // --- helpers -------------------------------------------------------------------------------

  private static Map<String, Object> manifest(Kube136Table.Row row) {
    Map<String, Object> m = manifests.get(row.apiVersion() + " " + row.kind());
    assertThat(m).as("a manifest of %s in all-resources.yaml", row).isNotNull();
    return m;
  }

  private static GenericKubernetesResource resource(Map<String, Object> manifest) {
    return Serialization.unmarshal(Serialization.asJson(manifest),
        GenericKubernetesResource.class);
  }

  /** The fabric8 generic client of {@code row}, in the test namespace when namespaced. */
  private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> ops(Kube136Table.Row row) {
    ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder()
        .withGroup(row.group()).withVersion(row.version()).withPlural(row.plural())
        .withKind(row.kind()).withNamespaced(row.namespaced()).build();
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList,
        Resource<GenericKubernetesResource>> all = client.genericKubernetesResources(ctx);
    return row.namespaced() ? all.inNamespace(NS) : all;
  }

  /**
   * The first event of a plain HTTP watch (no resourceVersion) of the object named {@code name}:
   * kube starts it with a synthetic ADDED for the existing object. The server ends the stream
   * after timeoutSeconds, which bounds the read.
   */
  private static String firstWatchEvent(Kube136Table.Row row, String name) throws Exception {
    HttpResponse<Stream<String>> r = raw.send(HttpRequest.newBuilder(uri(collectionPath(row)
        + "?watch=true&timeoutSeconds=30&fieldSelector=metadata.name%3D"
        + URLEncoder.encode(name, StandardCharsets.UTF_8))).GET().build(),
        HttpResponse.BodyHandlers.ofLines());
    assertThat(r.statusCode()).as("watch of %s", row).isEqualTo(200);
    try (Stream<String> lines = r.body()) {
      JsonNode event = JSON.readTree(lines.findFirst().orElse("{}"));
      return event.path("type").asText() + " "
          + event.path("object").path("metadata").path("name").asText();
    }
  }

  private static String collectionPath(Kube136Table.Row row) {
    String base = row.group().isEmpty() ? "/api/v1" : "/apis/" + row.apiVersion();
    return base + (row.namespaced() ? "/namespaces/" + NS : "") + "/" + row.plural();
  }

  private static URI uri(String path) {
    return URI.create(http.url().toString().replaceAll("/$", "") + path);
  }

  private static HttpResponse<String> get(String path, String accept) throws Exception {
    return raw.send(HttpRequest.newBuilder(uri(path)).header("Accept", accept).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> tableColumns(Kube136Table.Row row, String labelSelector)
      throws Exception {
    String query = labelSelector.isEmpty() ? ""
        : "?labelSelector=" + URLEncoder.encode(labelSelector, StandardCharsets.UTF_8);
    HttpResponse<String> r = get(collectionPath(row) + query, TABLE);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode table = JSON.readTree(r.body());
    assertThat(table.get("kind").asText()).isEqualTo("Table");
    if (!labelSelector.isEmpty()) {
      assertThat(table.get("rows")).hasSize(1);
    }
    List<String> names = new ArrayList<>();
    table.get("columnDefinitions").forEach(c -> names.add(c.get("name").asText()));
    return names;
  }

  private static String key(Kube136Table.Row row) {
    return row.group() + "/" + row.plural();
  }

  /**
   * The columns of kube-apiserver 1.36's tables: kubernetes pkg/printers/internalversion
   * (AddHandlers), kube-aggregator's APIService table, and the default convertor (Name, Created
   * At) for kinds without a printer.
   */
  private static final Map<String, List<String>> COLUMNS = columns();

  private static Map<String, List<String>> columns() {
    Map<String, List<String>> m = new HashMap<>();
    List<String> nameCreated = List.of("Name", "Created At");
    List<String> workload = List.of("Name", "Desired", "Current", "Ready", "Age", "Containers",
        "Images", "Selector");
    List<String> bindings = List.of("Name", "Role", "Age", "Users", "Groups",
        "ServiceAccounts");
    List<String> events = List.of("Last Seen", "Type", "Reason", "Object", "Subobject",
        "Source", "Message", "First Seen", "Count", "Name");
    List<String> webhooks = List.of("Name", "Webhooks", "Age");
    List<String> policyBindings = List.of("Name", "PolicyName", "ParamRef", "Age");
    m.put("/componentstatuses", List.of("Name", "Status", "Message", "Error"));
    m.put("/configmaps", List.of("Name", "Data", "Age"));
    m.put("/endpoints", List.of("Name", "Endpoints", "Age"));
    m.put("/events", events);
    m.put("/limitranges", nameCreated);
    m.put("/namespaces", List.of("Name", "Status", "Age"));
    m.put("/nodes", List.of("Name", "Status", "Roles", "Age", "Version", "Internal-IP",
        "External-IP", "OS-Image", "Kernel-Version", "Container-Runtime"));
    m.put("/persistentvolumeclaims", List.of("Name", "Status", "Volume", "Capacity",
        "Access Modes", "StorageClass", "VolumeAttributesClass", "Age", "VolumeMode"));
    m.put("/persistentvolumes", List.of("Name", "Capacity", "Access Modes", "Reclaim Policy",
        "Status", "Claim", "StorageClass", "VolumeAttributesClass", "Reason", "Age",
        "VolumeMode"));
    m.put("/pods", List.of("Name", "Ready", "Status", "Restarts", "Age", "IP", "Node",
        "Nominated Node", "Readiness Gates"));
    m.put("/podtemplates", List.of("Name", "Containers", "Images", "Pod Labels"));
    m.put("/replicationcontrollers", workload);
    m.put("/resourcequotas", List.of("Name", "Request", "Limit", "Age"));
    m.put("/secrets", List.of("Name", "Type", "Data", "Age"));
    m.put("/serviceaccounts", List.of("Name", "Secrets", "Age"));
    m.put("/services", List.of("Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age",
        "Selector"));
    m.put("admissionregistration.k8s.io/mutatingadmissionpolicies", List.of("Name",
        "Mutations", "ParamKind", "Age"));
    m.put("admissionregistration.k8s.io/mutatingadmissionpolicybindings", policyBindings);
    m.put("admissionregistration.k8s.io/mutatingwebhookconfigurations", webhooks);
    m.put("admissionregistration.k8s.io/validatingadmissionpolicies", List.of("Name",
        "Validations", "ParamKind", "Age"));
    m.put("admissionregistration.k8s.io/validatingadmissionpolicybindings", policyBindings);
    m.put("admissionregistration.k8s.io/validatingwebhookconfigurations", webhooks);
    m.put("apiextensions.k8s.io/customresourcedefinitions", nameCreated);
    m.put("apiregistration.k8s.io/apiservices", List.of("Name", "Service", "Available",
        "Age"));
    m.put("apps/controllerrevisions", List.of("Name", "Controller", "Revision", "Age"));
    m.put("apps/daemonsets", List.of("Name", "Desired", "Current", "Ready", "Up-to-date",
        "Available", "Node Selector", "Age", "Containers", "Images", "Selector"));
    m.put("apps/deployments", List.of("Name", "Ready", "Up-to-date", "Available", "Age",
        "Containers", "Images", "Selector"));
    m.put("apps/replicasets", workload);
    m.put("apps/statefulsets", List.of("Name", "Ready", "Age", "Containers", "Images"));
    m.put("autoscaling/horizontalpodautoscalers", List.of("Name", "Reference", "Targets",
        "MinPods", "MaxPods", "Replicas", "Age"));
    m.put("batch/cronjobs", List.of("Name", "Schedule", "Timezone", "Suspend", "Active",
        "Last Schedule", "Age", "Containers", "Images", "Selector"));
    m.put("batch/jobs", List.of("Name", "Status", "Completions", "Duration", "Age",
        "Containers", "Images", "Selector"));
    m.put("certificates.k8s.io/certificatesigningrequests", List.of("Name", "Age",
        "SignerName", "Requestor", "RequestedDuration", "Condition"));
    m.put("coordination.k8s.io/leases", List.of("Name", "Holder", "Age"));
    m.put("discovery.k8s.io/endpointslices", List.of("Name", "AddressType", "Ports",
        "Endpoints", "Age"));
    m.put("events.k8s.io/events", events);
    m.put("flowcontrol.apiserver.k8s.io/flowschemas", List.of("Name", "PriorityLevel",
        "MatchingPrecedence", "DistinguisherMethod", "Age", "MissingPL"));
    m.put("flowcontrol.apiserver.k8s.io/prioritylevelconfigurations", List.of("Name", "Type",
        "NominalConcurrencyShares", "Queues", "HandSize", "QueueLengthLimit", "Age"));
    m.put("networking.k8s.io/ingressclasses", List.of("Name", "Controller", "Parameters",
        "Age"));
    m.put("networking.k8s.io/ingresses", List.of("Name", "Class", "Hosts", "Address", "Ports",
        "Age"));
    m.put("networking.k8s.io/ipaddresses", List.of("Name", "ParentRef"));
    m.put("networking.k8s.io/networkpolicies", List.of("Name", "Pod-Selector", "Age"));
    m.put("networking.k8s.io/servicecidrs", List.of("Name", "CIDRs", "Age"));
    m.put("node.k8s.io/runtimeclasses", List.of("Name", "Handler", "Age"));
    m.put("policy/poddisruptionbudgets", List.of("Name", "Min Available", "Max Unavailable",
        "Allowed Disruptions", "Age"));
    m.put("rbac.authorization.k8s.io/clusterrolebindings", bindings);
    m.put("rbac.authorization.k8s.io/clusterroles", nameCreated);
    m.put("rbac.authorization.k8s.io/rolebindings", bindings);
    m.put("rbac.authorization.k8s.io/roles", nameCreated);
    m.put("resource.k8s.io/deviceclasses", List.of("Name", "Age"));
    m.put("resource.k8s.io/resourceclaims", List.of("Name", "State", "Age"));
    m.put("resource.k8s.io/resourceclaimtemplates", List.of("Name", "Age"));
    m.put("resource.k8s.io/resourceslices", List.of("Name", "Node", "Driver", "Pool", "Age"));
    m.put("scheduling.k8s.io/priorityclasses", List.of("Name", "Value", "Global-Default",
        "Age", "PreemptionPolicy"));
    m.put("storage.k8s.io/csidrivers", List.of("Name", "AttachRequired", "PodInfoOnMount",
        "StorageCapacity", "TokenRequests", "RequiresRepublish", "Modes", "Age"));
    m.put("storage.k8s.io/csinodes", List.of("Name", "Drivers", "Age"));
    m.put("storage.k8s.io/csistoragecapacities", List.of("Name", "StorageClassName",
        "Capacity"));
    m.put("storage.k8s.io/storageclasses", List.of("Name", "Provisioner", "ReclaimPolicy",
        "VolumeBindingMode", "AllowVolumeExpansion", "Age"));
    m.put("storage.k8s.io/volumeattachments", List.of("Name", "Attacher", "PV", "Node",
        "Attached", "Age"));
    m.put("storage.k8s.io/volumeattributesclasses", List.of("Name", "DriverName", "Age"));
    return m;
  }
}
