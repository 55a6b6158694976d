/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl (whichever is on the PATH) against a server started here. Each test works in
 * its own namespace; the server and kubectl's discovery cache are shared by the class.
 */
class KubectlTest extends KubectlServerTest {
  static String configMap(String name, String... data) {
    StringBuilder sb = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
        + name + "\n  labels:\n    app: demo\ndata:\n");
    for (int i = 0; i < data.length; i += 2) {
      sb.append("  ").append(data[i]).append(": ").append(data[i + 1]).append('\n');
    }
    return sb.toString();
  }

  static String deployment(String name, int replicas, String image) {
    return String.join("\n",
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        "  name: " + name,
        "spec:",
        "  replicas: " + replicas,
        "  selector:",
        "    matchLabels: {app: " + name + "}",
        "  template:",
        "    metadata:",
        "      labels: {app: " + name + "}",
        "    spec:",
        "      containers:",
        "      - name: main",
        "        image: " + image,
        "");
  }

  static MapValue getJson(String ns, String... what) {
    String[] args = concat(new String[] {"-n", ns, "get"}, what,
        new String[] {"-o", "json"}, kubectl.showManagedFields());
    return (MapValue) Json.read(kubectl.ok(args));
  }

  /** Creates a namespace for one test (kubectl reports a missing namespace on NotFound). */
  static String namespace(String name) {
    // not `kubectl create namespace`: kubectl's typed commands send protobuf bodies
    api.resources("v1", "namespaces").create(MapValue.ofEntries("apiVersion", Value.of("v1"),
        "kind", Value.of("Namespace"), "metadata", MapValue.ofEntries("name", Value.of(name))));
    return name;
  }

  static String[] concat(String[]... parts) {
    return Arrays.stream(parts).flatMap(Arrays::stream).toArray(String[]::new);
  }

  static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  static List<String> header(String table) {
    return Arrays.asList(firstLine(table).trim().split("\\s{2,}"));
  }

  @Test
  void serverSideApplyCreatesUpdatesAndReportsConflicts() {
    String ns = namespace("ssa");
    kubectl.file("ssa1.yaml", configMap("x", "key", "value1"));
    assertThat(kubectl.ok("-n", ns, "apply", "--server-side", "-f", "ssa1.yaml"))
        .isEqualTo("configmap/x serverside-applied\n");
    kubectl.file("ssa2.yaml", configMap("x", "key", "value2"));
    assertThat(kubectl.ok("-n", ns, "apply", "--server-side", "-f", "ssa2.yaml"))
        .isEqualTo("configmap/x serverside-applied\n");
    assertThat(kubectl.ok("-n", ns, "get", "cm", "x", "-o", "jsonpath={.data.key}"))
        .isEqualTo("value2");

    kubectl.file("ssa3.yaml", configMap("x", "key", "value3"));
    Kubectl.Result conflict = kubectl.run("-n", ns, "apply", "--server-side",
        "--field-manager=other", "-f", "ssa3.yaml");
    assertThat(conflict.exitCode()).as(conflict.toString()).isEqualTo(1);
    assertThat(firstLine(conflict.stderr()))
        .isEqualTo("error: Apply failed with 1 conflict: conflict with \"kubectl\": .data.key");
    if (kubectl.minorVersion() >= 27) {
      // the text recorded from kubectl 1.32 (kubectl-wire.md 3.1); older kubectl words the help
      // differently and links elsewhere
      assertThat(conflict.stderr()).isEqualTo(String.join("\n",
          "error: Apply failed with 1 conflict: conflict with \"kubectl\": .data.key",
          "Please review the fields above--they currently have other managers. Here",
          "are the ways you can resolve this warning:",
          "* If you intend to manage all of these fields, please re-run the apply",
          "  command with the `--force-conflicts` flag.",
          "* If you do not intend to manage all of the fields, please edit your",
          "  manifest to remove references to the fields that should keep their",
          "  current managers.",
          "* You may co-own fields by updating your manifest to match the existing",
          "  value; in this case, you'll become the manager if the other manager(s)",
          "  stop managing the field (remove it from their configuration).",
          "See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts",
          ""));
    } else {
      assertThat(conflict.stderr()).contains("Please review the fields above--they currently"
          + " have other managers.").contains("--force-conflicts");
    }
    assertThat(kubectl.ok("-n", ns, "get", "cm", "x", "-o", "jsonpath={.data.key}"))
        .isEqualTo("value2");

    assertThat(kubectl.ok("-n", ns, "apply", "--server-side", "--field-manager=other",
        "--force-conflicts", "-f", "ssa3.yaml")).isEqualTo("configmap/x serverside-applied\n");
    MapValue live = getJson(ns, "cm", "x");
    assertThat(Json.write(live.getOrNull("data"))).isEqualTo("{\"key\":\"value3\"}");
    String managed = Json.write(((MapValue) live.getOrNull("metadata")).getOrNull("managedFields"));
    assertThat(managed).contains("\"manager\":\"other\",\"operation\":\"Apply\"")
        .contains("\"manager\":\"kubectl\",\"operation\":\"Apply\"");
  }

  @Test
  void serverSideDryRunStoresNothing() {
    kubectl.file("dry.yaml", configMap("dry", "a", "b"));
    namespace("dry");
    assertThat(kubectl.ok("-n", "dry", "apply", "--server-side", "--dry-run=server", "-f",
        "dry.yaml")).isEqualTo("configmap/dry serverside-applied (server dry run)\n");
    Kubectl.Result get = kubectl.run("-n", "dry", "get", "cm", "dry");
    assertThat(get.exitCode()).isEqualTo(1);
    assertThat(get.stderr()).isEqualTo("Error from server (NotFound): configmaps \"dry\" not"
        + " found\n");
  }

  @Test
  void clientSideApplyThenServerSideApplyTakesOverWithoutConflict() {
    String ns = namespace("csa");
    kubectl.file("csa1.yaml", configMap("c", "a", "\"1\""));
    assertThat(kubectl.ok("-n", ns, "apply", "-f", "csa1.yaml"))
        .isEqualTo("configmap/c created\n");
    kubectl.file("csa2.yaml", configMap("c", "a", "\"2\""));
    assertThat(kubectl.ok("-n", ns, "apply", "-f", "csa2.yaml"))
        .isEqualTo("configmap/c configured\n");
    assertThat(kubectl.ok("-n", ns, "apply", "-f", "csa2.yaml"))
        .isEqualTo("configmap/c unchanged\n");
    kubectl.file("csa3.yaml", configMap("c", "a", "\"3\""));
    assertThat(kubectl.ok("-n", ns, "apply", "--server-side", "-f", "csa3.yaml"))
        .isEqualTo("configmap/c serverside-applied\n");
    MapValue live = getJson(ns, "cm", "c");
    assertThat(Json.write(live.getOrNull("data"))).isEqualTo("{\"a\":\"3\"}");
    String managed = Json.write(((MapValue) live.getOrNull("metadata")).getOrNull("managedFields"));
    assertThat(managed).contains("\"manager\":\"kubectl\",\"operation\":\"Apply\"");
    kubectl.file("csa4.yaml", configMap("c", "a", "\"4\""));
    assertThat(kubectl.ok("-n", ns, "apply", "--server-side", "-f", "csa4.yaml"))
        .isEqualTo("configmap/c serverside-applied\n");
  }

  @Test
  void diffClientAndServerSide() {
    String ns = namespace("diff");
    kubectl.file("diff1.yaml", configMap("d", "key", "value1"));
    kubectl.ok("-n", ns, "apply", "-f", "diff1.yaml");
    Kubectl.Result same = kubectl.run("-n", ns, "diff", "-f", "diff1.yaml");
    assertThat(same.exitCode()).as(same.toString()).isEqualTo(0);
    assertThat(same.stdout()).isEmpty();

    kubectl.file("diff2.yaml", configMap("d", "key", "value2"));
    Kubectl.Result changed = kubectl.run("-n", ns, "diff", "-f", "diff2.yaml");
    assertThat(changed.exitCode()).as(changed.toString()).isEqualTo(1);
    assertThat(changed.stdout()).contains("-  key: value1").contains("+  key: value2");
    Kubectl.Result serverSide = kubectl.run("-n", ns, "diff", "--server-side", "-f",
        "diff2.yaml");
    assertThat(serverSide.exitCode()).as(serverSide.toString()).isEqualTo(1);
    assertThat(serverSide.stdout()).contains("-  key: value1").contains("+  key: value2");
    // diff only looked
    assertThat(kubectl.ok("-n", ns, "get", "cm", "d", "-o", "jsonpath={.data.key}"))
        .isEqualTo("value1");

    kubectl.file("diff3.yaml", configMap("absent", "k", "v"));
    Kubectl.Result absent = kubectl.run("-n", ns, "diff", "-f", "diff3.yaml");
    assertThat(absent.exitCode()).as(absent.toString()).isEqualTo(1);
    assertThat(absent.stdout()).contains("+  name: absent");
    assertThat(kubectl.run("-n", ns, "get", "cm", "absent").exitCode()).isEqualTo(1);
  }

  @Test
  void createReplaceAndPatches() {
    String ns = namespace("crp");
    kubectl.file("web.yaml", deployment("web", 1, "nginx:1.25"));
    assertThat(kubectl.ok("-n", ns, "create", "-f", "web.yaml"))
        .isEqualTo("deployment.apps/web created\n");
    Kubectl.Result again = kubectl.run("-n", ns, "create", "-f", "web.yaml");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.stderr()).isEqualTo("Error from server (AlreadyExists): error when"
        + " creating \"web.yaml\": deployments.apps \"web\" already exists\n");

    kubectl.file("web2.yaml", deployment("web", 2, "nginx:1.26"));
    assertThat(kubectl.ok("-n", ns, "replace", "-f", "web2.yaml"))
        .isEqualTo("deployment.apps/web replaced\n");
    assertThat(kubectl.ok("-n", ns, "get", "deploy", "web", "-o",
        "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}"))
        .isEqualTo("2 nginx:1.26");

    assertThat(kubectl.ok("-n", ns, "patch", "deploy", "web", "--type=merge", "-p",
        "{\"metadata\":{\"labels\":{\"merge\":\"yes\"}}}"))
        .isEqualTo("deployment.apps/web patched\n");
    assertThat(kubectl.ok("-n", ns, "patch", "deploy", "web", "--type=json", "-p",
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/json\",\"value\":\"yes\"}]"))
        .isEqualTo("deployment.apps/web patched\n");
    // a strategic merge patch merges the containers list by name
    String smp = "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"side\","
        + "\"image\":\"busybox\"}]}}}}";
    assertThat(kubectl.ok("-n", ns, "patch", "deploy", "web", "-p", smp))
        .isEqualTo("deployment.apps/web patched\n");
    assertThat(kubectl.ok("-n", ns, "patch", "deploy", "web", "-p", smp))
        .isEqualTo("deployment.apps/web patched (no change)\n");
    assertThat(kubectl.ok("-n", ns, "get", "deploy", "web", "-o",
        "jsonpath={.metadata.labels.merge} {.metadata.labels.json}"
            + " {.spec.template.spec.containers[*].name}"))
        .isEqualTo("yes yes side main");

    Kubectl.Result stale = kubectl.run("-n", ns, "replace", "-f", "web.yaml");
    assertThat(stale.exitCode()).isZero();
  }

  @Test
  void labelAnnotateAndScale() {
    String ns = namespace("las");
    kubectl.file("las.yaml", deployment("app", 1, "nginx"));
    kubectl.ok("-n", ns, "apply", "-f", "las.yaml");
    assertThat(kubectl.ok("-n", ns, "label", "deploy", "app", "env=prod"))
        .isEqualTo("deployment.apps/app labeled\n");
    assertThat(kubectl.ok("-n", ns, "annotate", "deploy", "app", "note=hello"))
        .isEqualTo("deployment.apps/app annotated\n");
    assertThat(kubectl.ok("-n", ns, "scale", "deploy", "app", "--replicas=3"))
        .isEqualTo("deployment.apps/app scaled\n");
    assertThat(kubectl.ok("-n", ns, "get", "deploy", "app", "-o",
        "jsonpath={.metadata.labels.env} {.metadata.annotations.note} {.spec.replicas}"))
        .isEqualTo("prod hello 3");
    // kubectl 1.20 said "labeled" for a removal too
    assertThat(kubectl.ok("-n", ns, "label", "deploy", "app", "env-")).isEqualTo(
        kubectl.minorVersion() > 20 ? "deployment.apps/app unlabeled\n"
            : "deployment.apps/app labeled\n");
    String managed = Json.write(((MapValue) getJson(ns, "deploy", "app").getOrNull("metadata"))
        .getOrNull("managedFields"));
    assertThat(managed).contains("\"manager\":\"kubectl-label\"")
        .contains("\"manager\":\"kubectl-annotate\"")
        .contains("\"subresource\":\"scale\"");
  }

  @Test
  void deleteAndDryRunDelete() {
    String ns = namespace("del");
    kubectl.file("del.yaml", configMap("gone", "a", "b"));
    kubectl.ok("-n", ns, "apply", "-f", "del.yaml");
    assertThat(kubectl.ok("-n", ns, "delete", "cm", "gone", "--dry-run=server"))
        .isEqualTo("configmap \"gone\" deleted (server dry run)\n");
    assertThat(kubectl.ok("-n", ns, "get", "cm", "gone", "-o", "name"))
        .isEqualTo("configmap/gone\n");
    assertThat(kubectl.ok("-n", ns, "delete", "cm", "gone"))
        .isEqualTo("configmap \"gone\" deleted\n");
    Kubectl.Result get = kubectl.run("-n", ns, "get", "cm", "gone");
    assertThat(get.exitCode()).isEqualTo(1);
    assertThat(get.stderr()).contains("configmaps \"gone\" not found");
    Kubectl.Result again = kubectl.run("-n", ns, "delete", "cm", "gone");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.stderr()).isEqualTo("Error from server (NotFound): configmaps \"gone\" not"
        + " found\n");
  }

  @Test
  void getYamlWithAndWithoutManagedFields() {
    String ns = namespace("yaml");
    kubectl.file("y.yaml", configMap("yml", "a", "b"));
    kubectl.ok("-n", ns, "apply", "--server-side", "-f", "y.yaml");
    String shown = kubectl.ok(concat(new String[] {"-n", ns, "get", "cm", "yml", "-o", "yaml"},
        kubectl.showManagedFields()));
    assertThat(shown).contains("  managedFields:\n").contains("    manager: kubectl\n")
        .contains("    operation: Apply\n").contains("        f:key: {}\n".replace("key", "a"));
    String hidden = kubectl.ok("-n", ns, "get", "cm", "yml", "-o", "yaml");
    if (kubectl.minorVersion() >= 21) {
      assertThat(hidden).doesNotContain("managedFields");
    }
    assertThat(hidden).contains("  name: yml\n").contains("  namespace: yaml\n");
  }

  @Test
  void theWholeBuiltinApiWorksWithKubectl() {
    String ns = namespace("builtin-api");
    kubectl.file("rbac-lease-ing.yaml", String.join("\n",
        "apiVersion: rbac.authorization.k8s.io/v1", "kind: Role",
        "metadata: {name: pod-reader}",
        "rules: [{apiGroups: [''], resources: [pods], verbs: [get, list]}]",
        "---",
        "apiVersion: coordination.k8s.io/v1", "kind: Lease", "metadata: {name: leader}",
        "spec: {holderIdentity: pod-1, leaseDurationSeconds: 15}",
        "---",
        "apiVersion: networking.k8s.io/v1", "kind: Ingress", "metadata: {name: web}",
        "spec: {rules: [{host: a.example.com, http: {paths: [{path: /, pathType: Prefix,"
            + " backend: {service: {name: web, port: {number: 80}}}}]}}]}", ""));
    kubectl.ok("-n", ns, "apply", "-f", "rbac-lease-ing.yaml");

    // the columns kube-apiserver 1.36 prints
    assertThat(header(kubectl.ok("-n", ns, "get", "roles")))
        .containsExactly("NAME", "CREATED AT");
    String leases = kubectl.ok("-n", ns, "get", "leases");
    assertThat(header(leases)).containsExactly("NAME", "HOLDER", "AGE");
    assertThat(leases).containsPattern("leader\\s+pod-1\\s+");
    String ingresses = kubectl.ok("-n", ns, "get", "ingress");
    assertThat(header(ingresses)).containsExactly("NAME", "CLASS", "HOSTS", "ADDRESS",
        "PORTS", "AGE");
    assertThat(ingresses).containsPattern("web\\s+<none>\\s+a\\.example\\.com\\s+80\\s+");

    // discovery as kube's: short names, scope, kind
    assertThat(kubectl.ok("api-resources", "--api-group=coordination.k8s.io"))
        .containsPattern("leases\\s+coordination\\.k8s\\.io/v1\\s+true\\s+Lease");
    assertThat(kubectl.ok("api-resources", "--api-group=policy"))
        .containsPattern("poddisruptionbudgets\\s+pdb\\s+policy/v1\\s+true\\s+"
            + "PodDisruptionBudget");

    // explain reads kube's OpenAPI v3 definitions (the description is DeploymentSpec.strategy's)
    assertThat(kubectl.ok("explain", "deployment.spec.strategy"))
        .contains("The deployment strategy to use to replace existing pods with new ones.");
  }

  @Test
  void clientSideApplySwitchingStrategyClearsTheOldOneThroughRetainKeys() {
    String ns = namespace("retain-keys");
    // the server defaults spec.strategy.rollingUpdate, which the configuration never had
    String rolling = deployment("rk", 1, "nginx") + "  strategy: {type: RollingUpdate}\n";
    kubectl.file("rk1.yaml", rolling);
    kubectl.ok("-n", ns, "apply", "-f", "rk1.yaml");
    kubectl.file("rk2.yaml", deployment("rk", 1, "nginx") + "  strategy: {type: Recreate}\n");
    kubectl.ok("-n", ns, "apply", "-f", "rk2.yaml");

    // DeploymentSpec.strategy is retainKeys in the OpenAPI, so kubectl's patch says
    // $retainKeys: [type] and the server drops the defaulted rollingUpdate
    MapValue spec = (MapValue) getJson(ns, "deployment", "rk").getOrNull("spec");
    MapValue strategy = (MapValue) spec.getOrNull("strategy");
    assertThat(Json.write(strategy)).isEqualTo("{\"type\":\"Recreate\"}");
  }

  @Test
  void getPrintsServerSideTables() {
    String ns = namespace("tables");
    kubectl.file("t-cm.yaml", configMap("t", "a", "b", "c", "d"));
    kubectl.file("t-deploy.yaml", deployment("t", 2, "nginx"));
    kubectl.file("t-svc.yaml", String.join("\n",
        "apiVersion: v1", "kind: Service", "metadata: {name: t}",
        "spec: {type: ClusterIP, clusterIP: 10.0.0.10, ports: [{port: 80}],"
            + " selector: {app: t}}", ""));
    kubectl.file("t-pod.yaml", String.join("\n",
        "apiVersion: v1", "kind: Pod", "metadata: {name: t}",
        "spec: {containers: [{name: c, image: nginx}]}", ""));
    kubectl.ok("-n", ns, "apply", "-f", "t-cm.yaml", "-f", "t-deploy.yaml", "-f", "t-svc.yaml",
        "-f", "t-pod.yaml");

    String cm = kubectl.ok("-n", ns, "get", "cm", "t");
    assertThat(header(cm)).containsExactly("NAME", "DATA", "AGE");
    assertThat(cm.lines().skip(1).findFirst().orElseThrow()).matches("t\\s+2\\s+\\d+s");
    assertThat(header(kubectl.ok("-n", ns, "get", "deploy")))
        .containsExactly("NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE");
    assertThat(kubectl.ok("-n", ns, "get", "deploy")).contains("0/2");
    assertThat(header(kubectl.ok("-n", ns, "get", "deploy", "-o", "wide")))
        .containsExactly("NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS",
            "IMAGES", "SELECTOR");
    String svc = kubectl.ok("-n", ns, "get", "svc");
    assertThat(header(svc)).containsExactly("NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP",
        "PORT(S)", "AGE");
    assertThat(svc).containsPattern("t\\s+ClusterIP\\s+10\\.0\\.0\\.10\\s+<none>\\s+80/TCP");
    // kube 1.33+ holds the cluster IP as an IPAddress (printIPAddress: Name, ParentRef)
    String ips = kubectl.ok("get", "ipaddresses");
    assertThat(header(ips)).containsExactly("NAME", "PARENTREF");
    assertThat(ips).containsPattern("10\\.0\\.0\\.10\\s+services/" + ns + "/t\\n");
    String pods = kubectl.ok("-n", ns, "get", "pods");
    assertThat(header(pods)).containsExactly("NAME", "READY", "STATUS", "RESTARTS", "AGE");
    assertThat(pods).containsPattern("t\\s+0/1\\s+Pending\\s+0\\s+");
    String all = kubectl.ok("get", "cm", "-A");
    assertThat(header(all)).containsExactly("NAMESPACE", "NAME", "DATA", "AGE");
    assertThat(all).containsPattern("tables\\s+t\\s+2");
    // a new namespace holds kube-root-ca.crt (root-ca-cert-publisher) but no Secret
    namespace("empty-ns");
    Kubectl.Result none = kubectl.run("-n", "empty-ns", "get", "secrets");
    assertThat(none.exitCode()).isZero();
    assertThat(none.stderr()).isEqualTo("No resources found in empty-ns namespace.\n");
  }

  @Test
  void getWatchSeesChanges() throws Exception {
    String ns = namespace("watch");
    kubectl.file("w1.yaml", configMap("w1", "a", "b"));
    kubectl.ok("-n", ns, "apply", "-f", "w1.yaml");
    // kube-root-ca.crt, which the root-ca-cert-publisher writes into every namespace at its
    // own time, is left out of the watch
    try (Kubectl.Background watch = kubectl.background("-n", ns, "get", "cm", "-w",
        "--field-selector", "metadata.name!=kube-root-ca.crt")) {
      assertThat(header(watch.nextLine(30))).containsExactly("NAME", "DATA", "AGE");
      assertThat(watch.nextLine(30)).startsWith("w1 ");
      kubectl.file("w2.yaml", configMap("w2", "a", "b", "c", "d"));
      kubectl.ok("-n", ns, "apply", "-f", "w2.yaml");
      assertThat(watch.nextLine(30)).matches("w2\\s+2\\s+.*");
      kubectl.ok("-n", ns, "label", "cm", "w1", "changed=yes");
      assertThat(watch.nextLine(30)).matches("w1\\s+1\\s+.*");
    }
    // a named watch skips its synthetic first event and shows the next change
    try (Kubectl.Background watch = kubectl.background("-n", ns, "get", "cm", "w1", "-w")) {
      assertThat(header(watch.nextLine(30))).containsExactly("NAME", "DATA", "AGE");
      assertThat(watch.nextLine(30)).startsWith("w1 ");
      // kubectl prints the object it fetched, then opens the watch: a change made before the
      // watch is open is swallowed with the synthetic first event, so change until one shows
      String line = null;
      for (int i = 0; i < 20 && line == null; i++) {
        kubectl.ok("-n", ns, "annotate", "--overwrite", "cm", "w1", "seen=" + i);
        line = watch.pollLine(1);
      }
      assertThat(line).startsWith("w1 ");
    }
  }

  @Test
  void typedCreateCommandsSendProtobuf() {
    assertThat(kubectl.ok("create", "namespace", "typed")).isEqualTo("namespace/typed created\n");
    assertThat(kubectl.ok("get", "ns", "typed", "-o", "jsonpath={.status.phase}"))
        .isEqualTo("Active");
    assertThat(kubectl.ok("-n", "typed", "create", "configmap", "cm", "--from-literal=a=1",
        "--from-literal=b=two")).isEqualTo("configmap/cm created\n");
    assertThat(kubectl.ok("-n", "typed", "get", "cm", "cm", "-o", "jsonpath={.data}"))
        .isEqualTo("{\"a\":\"1\",\"b\":\"two\"}");
    assertThat(kubectl.ok("-n", "typed", "create", "secret", "generic", "s",
        "--from-literal=password=hunter2")).isEqualTo("secret/s created\n");
    assertThat(kubectl.ok("-n", "typed", "get", "secret", "s", "-o",
        "jsonpath={.type} {.data.password}")).isEqualTo("Opaque aHVudGVyMg==");
    assertThat(kubectl.ok("-n", "typed", "create", "serviceaccount", "robot"))
        .isEqualTo("serviceaccount/robot created\n");
    assertThat(kubectl.ok("-n", "typed", "create", "configmap", "dry", "--from-literal=a=1",
        "--dry-run=server")).isEqualTo("configmap/dry created (server dry run)\n");
    Kubectl.Result dup = kubectl.run("-n", "typed", "create", "configmap", "cm",
        "--from-literal=a=1");
    assertThat(dup.exitCode()).isEqualTo(1);
    assertThat(dup.stderr()).contains("configmaps \"cm\" already exists");
  }

  @Test
  void customResourceDefinitionThenCustomResource() {
    String ns = namespace("crd");
    kubectl.file("crd.yaml", String.join("\n",
        "apiVersion: apiextensions.k8s.io/v1",
        "kind: CustomResourceDefinition",
        "metadata:",
        "  name: widgets.example.com",
        "spec:",
        "  group: example.com",
        "  scope: Namespaced",
        "  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}",
        "  versions:",
        "  - name: v1",
        "    served: true",
        "    storage: true",
        "    schema:",
        "      openAPIV3Schema:",
        "        type: object",
        "        properties:",
        "          spec:",
        "            type: object",
        "            properties:",
        "              size: {type: integer}",
        "              color: {type: string}",
        "    additionalPrinterColumns:",
        "    - {name: Color, type: string, jsonPath: .spec.color}",
        "    - {name: Size, type: integer, jsonPath: .spec.size}",
        "    subresources:",
        "      status: {}",
        ""));
    assertThat(kubectl.ok("apply", "-f", "crd.yaml"))
        .isEqualTo("customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n");
    kubectl.file("widget.yaml", String.join("\n",
        "apiVersion: example.com/v1",
        "kind: Widget",
        "metadata: {name: w}",
        "spec: {size: 3, color: blue}",
        ""));
    assertThat(kubectl.ok("-n", ns, "apply", "-f", "widget.yaml"))
        .isEqualTo("widget.example.com/w created\n");
    String table = kubectl.ok("-n", ns, "get", "wd");
    assertThat(header(table)).containsExactly("NAME", "COLOR", "SIZE");
    assertThat(table).containsPattern("w\\s+blue\\s+3");
    kubectl.file("widget2.yaml", String.join("\n",
        "apiVersion: example.com/v1",
        "kind: Widget",
        "metadata: {name: w}",
        "spec: {size: 4, color: blue}",
        ""));
    assertThat(kubectl.ok("-n", ns, "apply", "--server-side", "-f", "widget2.yaml"))
        .isEqualTo("widget.example.com/w serverside-applied\n");
    assertThat(kubectl.ok("-n", ns, "get", "widgets", "w", "-o", "jsonpath={.spec.size}"))
        .isEqualTo("4");
    Kubectl.Result smp = kubectl.run("-n", ns, "patch", "wd", "w", "-p",
        "{\"spec\":{\"size\":5}}");
    assertThat(smp.exitCode()).isEqualTo(1);
    assertThat(smp.stderr()).contains("the body of the request was in an unknown format -"
        + " accepted media types include: application/json-patch+json,"
        + " application/merge-patch+json, application/apply-patch+yaml");
  }
}
