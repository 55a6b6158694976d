/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ServeOptionsTest {

  @Test
  void defaults() {
    ServeOptions o = ServeOptions.parse();
    assertThat(o.get(ServeOptions.SECURE_PORT)).isEqualTo(8080);
    assertThat(o.get(ServeOptions.BIND_ADDRESS)).isEqualTo("127.0.0.1");
    assertThat(o.get(ServeOptions.ETCD_SERVERS)).isEmpty();
    assertThat(o.get(ServeOptions.KUBECONFIG)).isEmpty();
    assertThat(o.get(ServeOptions.AUTHORIZATION_MODE)).isEqualTo("AlwaysAllow");
    assertThat(o.get(ServeOptions.HELP)).isFalse();
    assertThat(o.isSet(ServeOptions.SECURE_PORT)).isFalse();
    assertThat(o.authenticates()).isFalse();
  }

  @Test
  void kubeApiserverNamesWithSeparateOrJoinedValues() {
    ServeOptions o = ServeOptions.parse("--secure-port", "9000", "--kubeconfig=/tmp/k.yaml",
        "--bind-address=localhost");
    assertThat(o.get(ServeOptions.SECURE_PORT)).isEqualTo(9000);
    assertThat(o.isSet(ServeOptions.SECURE_PORT)).isTrue();
    assertThat(o.get(ServeOptions.KUBECONFIG)).contains(Path.of("/tmp/k.yaml"));
    assertThat(o.get(ServeOptions.BIND_ADDRESS)).isEqualTo("localhost");
  }

  @Test
  void theOlderNamesStillWork() {
    ServeOptions o = ServeOptions.parse("--port", "9001", "--host=0.0.0.0",
        "--etcd", "http://127.0.0.1:2379");
    assertThat(o.get(ServeOptions.SECURE_PORT)).isEqualTo(9001);
    assertThat(o.get(ServeOptions.BIND_ADDRESS)).isEqualTo("0.0.0.0");
    assertThat(o.get(ServeOptions.ETCD_SERVERS))
        .containsExactly(URI.create("http://127.0.0.1:2379"));
  }

  @Test
  void helpIsABooleanFlag() {
    assertThat(ServeOptions.parse("-h").get(ServeOptions.HELP)).isTrue();
    assertThat(ServeOptions.parse("--help").get(ServeOptions.HELP)).isTrue();
    assertThat(ServeOptions.parse("--help=false").get(ServeOptions.HELP)).isFalse();
    // --help answers even when other flags would not pass their checks
    assertThat(ServeOptions.parse("--authorization-mode=RBAC", "--help").get(ServeOptions.HELP))
        .isTrue();
    assertThatThrownBy(() -> ServeOptions.parse("--help=maybe"))
        .hasMessage("--help is true or false, got: maybe");
  }

  @Test
  void badArgumentsAreNamed() {
    assertThatThrownBy(() -> ServeOptions.parse("--bogus"))
        .hasMessage("unknown flag: --bogus");
    assertThatThrownBy(() -> ServeOptions.parse("--bogus=1"))
        .hasMessage("unknown flag: --bogus");
    assertThatThrownBy(() -> ServeOptions.parse("serve"))
        .hasMessage("unexpected argument: serve (flags start with --)");
    assertThatThrownBy(() -> ServeOptions.parse("--secure-port"))
        .hasMessage("--secure-port needs a value (PORT)");
    assertThatThrownBy(() -> ServeOptions.parse("--secure-port", "eighty"))
        .hasMessage("--secure-port must be a number: eighty");
    assertThatThrownBy(() -> ServeOptions.parse("--port", "70000"))
        .hasMessage("--secure-port out of range (0-65535): 70000");
    assertThatThrownBy(() -> ServeOptions.parse("--kubeconfig="))
        .hasMessage("--kubeconfig needs a file name");
    assertThatThrownBy(() -> ServeOptions.parse("--service-node-port-range", "30000"))
        .hasMessageStartingWith("service node port range is not min-max of ports: ");
    assertThatThrownBy(() -> ServeOptions.parse("--service-cluster-ip-range", "10.96.0.0"))
        .hasMessage("service cluster IP range is no CIDR: 10.96.0.0");
  }

  @Test
  void emulatedVersionTakesKubesFormatAndRange() {
    assertThat(ServeOptions.parse().get(ServeOptions.EMULATED_VERSION))
        .isEqualTo(io.apiserver4j.kubeapi.KubeVersion.V1_36);
    assertThat(ServeOptions.parse("--emulated-version=1.33").get(ServeOptions.EMULATED_VERSION))
        .isEqualTo(io.apiserver4j.kubeapi.KubeVersion.V1_33);
    assertThat(ServeOptions.parse("--emulated-version", "kube=1.35")
        .get(ServeOptions.EMULATED_VERSION)).isEqualTo(io.apiserver4j.kubeapi.KubeVersion.V1_35);
    // component-base compatibility's Validate
    assertThatThrownBy(() -> ServeOptions.parse("--emulated-version=1.32"))
        .hasMessageContaining("emulation version 1.32 is not between [1.33, 1.36.0]");
    assertThatThrownBy(() -> ServeOptions.parse("--emulated-version=1.37"))
        .hasMessageContaining("emulation version 1.37 is not between [1.33, 1.36.0]");
  }

  /** component-base's errors, at the emulated release (KEP-4330). */
  @Test
  void featureGatesAreCheckedAtTheEmulatedVersion() {
    assertThat(ServeOptions.parse("--feature-gates=PodLevelResources=false,"
        + "InPlacePodLevelResourcesVerticalScaling=false").get(ServeOptions.FEATURE_GATES))
        .isEqualTo("PodLevelResources=false,InPlacePodLevelResourcesVerticalScaling=false");
    // component-base's dependency check: a gate on by default that depends on the one set off
    assertThatThrownBy(() -> ServeOptions.parse("--feature-gates=PodLevelResources=false"))
        .hasMessage("InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features"
            + " that are disabled: [PodLevelResources]");
    assertThat(ServeOptions.parse("--emulated-version=1.33",
        "--feature-gates=DynamicResourceAllocation=false").get(ServeOptions.FEATURE_GATES))
        .isEqualTo("DynamicResourceAllocation=false");
    assertThatThrownBy(() -> ServeOptions.parse("--feature-gates=DynamicResourceAllocation=false"))
        .hasMessage("cannot set feature gate DynamicResourceAllocation to false, feature is"
            + " locked to true");
    assertThatThrownBy(() -> ServeOptions.parse("--feature-gates=NoSuchGate=true"))
        .hasMessage("unrecognized feature gate: NoSuchGate");
    assertThatThrownBy(() -> ServeOptions.parse("--feature-gates", "PodLevelResources=yes"))
        .hasMessage("invalid value of PodLevelResources=yes, err: strconv.ParseBool: parsing"
            + " \"yes\": invalid syntax");
    assertThatThrownBy(() -> ServeOptions.parse("--emulated-version=1.35",
        "--feature-gates=ShardedListAndWatch=true")).hasMessage("cannot set feature gate"
            + " ShardedListAndWatch to true, feature is PreAlpha at emulated version 1.35, min"
            + " compatibility version 1.34");
  }

  @Test
  void etcdServersTakesOneOrMoreClientUrls() {
    assertThat(ServeOptions.parse("--etcd-servers", "http://127.0.0.1:2379")
        .get(ServeOptions.ETCD_SERVERS)).containsExactly(URI.create("http://127.0.0.1:2379"));
    assertThat(ServeOptions.parse("--etcd-servers=http://a:1,https://b:2")
        .get(ServeOptions.ETCD_SERVERS))
        .containsExactly(URI.create("http://a:1"), URI.create("https://b:2"));
    assertThatThrownBy(() -> ServeOptions.parse("--etcd-servers", "127.0.0.1:2379"))
        .hasMessage("--etcd-servers: expected http://HOST:PORT (or https), got: 127.0.0.1:2379");
    assertThatThrownBy(() -> ServeOptions.parse("--etcd", "http://host"))
        .hasMessage("--etcd-servers: expected http://HOST:PORT (or https), got: http://host");
  }

  @Test
  void tlsFilesGoTogether() {
    assertThatThrownBy(() -> ServeOptions.parse("--tls-cert-file", "/c.pem"))
        .hasMessage("--tls-cert-file and --tls-private-key-file go together");
    ServeOptions o = ServeOptions.parse("--tls-cert-file", "/c.pem",
        "--tls-private-key-file", "/k.pem", "--token-auth-file", "/t.csv");
    assertThat(o.authenticates()).isTrue();
    assertThat(o.get(ServeOptions.TOKEN_AUTH_FILE)).isEqualTo(Optional.of(Path.of("/t.csv")));
  }

  @Test
  void usageListsEveryFlagWithItsAliasesAndDefault() {
    String usage = ServeOptions.usage();
    for (Flag<?> f : ServeOptions.flags()) {
      assertThat(usage).contains("  " + f.name());
      f.aliases().forEach(a -> assertThat(usage).contains(a));
    }
    assertThat(usage).contains("  --secure-port PORT\n").contains("[default 8080]")
        .contains("(also --port)").contains("  --etcd-servers URL[,URL...]\n")
        .contains("  --authorization-mode AlwaysAllow|RBAC\n").contains("  --kubeconfig FILE\n")
        .contains("  --help\n      show this help (also -h)\n");
    assertThat(usage.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    List<String> expected = new java.util.ArrayList<>(List.of("--secure-port",
        "--bind-address", "--etcd-servers", "--authorization-mode", "--token-auth-file",
        "--tls-cert-file", "--tls-private-key-file", "--client-ca-file", "--anonymous-auth",
        "--service-account-issuer", "--service-account-signing-key-file",
        "--service-account-key-file", "--audit-policy-file", "--audit-log-path",
        "--audit-log-maxsize", "--audit-log-maxbackup", "--audit-log-maxage",
        "--emulated-version", "--feature-gates", "--service-cluster-ip-range", "--service-node-port-range", "--enable-admission-plugins",
        "--disable-admission-plugins", "--admission-control-config-file", "--cert-dir",
        "--kubeconfig", "--controllers", "--leader-elect", "--leader-elect-lease-duration",
        "--leader-elect-renew-deadline", "--leader-elect-retry-period"));
    // one per implemented controller with workers, by name (other controllers add theirs)
    ServeOptions.CONCURRENT_SYNCS.keySet().forEach(n -> expected.add("--concurrent-" + n
        + "-syncs"));
    expected.add("--terminated-pod-gc-threshold");
    for (String signer : List.of("", "kubelet-serving-", "kubelet-client-",
        "kube-apiserver-client-", "legacy-unknown-")) {
      expected.add("--cluster-signing-" + signer + "cert-file");
      expected.add("--cluster-signing-" + signer + "key-file");
    }
    expected.add("--cluster-signing-duration");
    expected.add("--service-account-private-key-file");
    expected.add("--root-ca-file");
    expected.add("--simulated-nodes");
    expected.add("--simulated-nodes-config");
    expected.add("--help");
    assertThat(ServeOptions.flags()).extracting(Flag::name).containsExactlyElementsOf(expected);
    assertThat(List.copyOf(ServeOptions.CONCURRENT_SYNCS.keySet())).isSorted()
        .contains("gc", "rc", "replicaset");
    assertThat(usage).contains("  --controllers NAMES\n").contains("[default *]")
        .contains("  --leader-elect\n").contains("[default true]")
        .contains("  --leader-elect-lease-duration DURATION\n").contains("[default 15s]")
        .contains("[default 10s]").contains("[default 2s]")
        .contains("  --concurrent-gc-syncs N\n").contains("[default 20]");
  }

  /** kube-controller-manager's --cluster-signing-* flags and its validation messages. */
  @Test
  void clusterSigningFlags() {
    ServeOptions none = ServeOptions.parse();
    assertThat(none.get(ServeOptions.CLUSTER_SIGNING_DURATION)).hasHours(8760);
    assertThat(none.clusterSigning().fromFiles()).isFalse();
    ServeOptions set = ServeOptions.parse("--cluster-signing-cert-file=/ca.crt",
        "--cluster-signing-key-file", "/ca.key", "--cluster-signing-duration=10h");
    assertThat(set.clusterSigning().files("kubernetes.io/kubelet-serving")).isPresent();
    assertThat(set.clusterSigning().duration()).hasHours(10);
    assertThatThrownBy(() -> ServeOptions.parse("--cluster-signing-kubelet-serving-key-file=/k"))
        .hasMessageContaining("\"cluster-signing-kubelet-serving\": cannot specify key without"
            + " cert");
    assertThatThrownBy(() -> ServeOptions.parse("--cluster-signing-cert-file=/ca.crt",
        "--cluster-signing-key-file=/ca.key", "--cluster-signing-legacy-unknown-cert-file=/c",
        "--cluster-signing-legacy-unknown-key-file=/k")).hasMessageContaining(
            "cannot specify --cluster-signing-{cert,key}-file and other"
                + " --cluster-signing-*-file flags at the same time");
  }

  @Test
  void kubeControllerManagerFlagsWithKubesDefaults() {
    ServeOptions o = ServeOptions.parse();
    assertThat(o.get(ServeOptions.CONTROLLERS)).containsExactly("*");
    assertThat(o.get(ServeOptions.LEADER_ELECT)).isTrue();
    assertThat(o.get(ServeOptions.LEADER_ELECT_LEASE_DURATION)).hasSeconds(15);
    assertThat(o.get(ServeOptions.LEADER_ELECT_RENEW_DEADLINE)).hasSeconds(10);
    assertThat(o.get(ServeOptions.LEADER_ELECT_RETRY_PERIOD)).hasSeconds(2);
    assertThat(o.get(ServeOptions.CONCURRENT_SYNCS.get("gc"))).isEqualTo(20);
    assertThat(o.get(ServeOptions.CONCURRENT_SYNCS.get("replicaset"))).isEqualTo(5);
    assertThat(o.get(ServeOptions.CONCURRENT_SYNCS.get("rc"))).isEqualTo(5);
    assertThat(o.concurrentSyncs()).isEmpty();
    assertThat(o.get(ServeOptions.TERMINATED_POD_GC_THRESHOLD)).isEqualTo(12500);
    assertThat(ServeOptions.parse("--terminated-pod-gc-threshold=-1")
        .get(ServeOptions.TERMINATED_POD_GC_THRESHOLD)).isEqualTo(-1);

    ServeOptions set = ServeOptions.parse("--controllers=*,-garbagecollector",
        "--leader-elect-lease-duration=1m30s", "--leader-elect-renew-deadline", "500ms",
        "--leader-elect-retry-period=0.1s", "--concurrent-gc-syncs=3");
    assertThat(set.get(ServeOptions.CONTROLLERS)).containsExactly("*", "-garbagecollector");
    assertThat(set.get(ServeOptions.LEADER_ELECT_LEASE_DURATION)).hasSeconds(90);
    assertThat(set.get(ServeOptions.LEADER_ELECT_RENEW_DEADLINE)).hasMillis(500);
    assertThat(set.get(ServeOptions.LEADER_ELECT_RETRY_PERIOD)).hasMillis(100);
    assertThat(set.concurrentSyncs()).containsExactly(java.util.Map.entry("gc", 3));
    assertThat(ServeOptions.parse("--leader-elect=false").get(ServeOptions.LEADER_ELECT))
        .isFalse();
  }

  @Test
  void badKubeControllerManagerFlagsAreRefusedWithKubesMessages() {
    assertThatThrownBy(() -> ServeOptions.parse("--controllers=*,nope"))
        .hasMessage("\"nope\" is not in the list of known controllers");
    assertThatThrownBy(() -> ServeOptions.parse("--controllers=nodeipam"))
        .hasMessageContaining("\"node-ipam-controller\" is not implemented");
    // client-go's NewLeaderElector checks
    assertThatThrownBy(() -> ServeOptions.parse("--leader-elect-lease-duration=5s"))
        .hasMessage("leaseDuration must be greater than renewDeadline");
    assertThatThrownBy(() -> ServeOptions.parse("--leader-elect-retry-period=9s"))
        .hasMessage("renewDeadline must be greater than retryPeriod*JitterFactor");
    // not checked when there is no election
    assertThat(ServeOptions.parse("--leader-elect=false", "--leader-elect-lease-duration=5s")
        .get(ServeOptions.LEADER_ELECT)).isFalse();
    assertThatThrownBy(() -> ServeOptions.parse("--leader-elect-retry-period=2"))
        .hasMessageStartingWith("--leader-elect-retry-period: invalid duration \"2\"");
    assertThatThrownBy(() -> ServeOptions.parse("--concurrent-gc-syncs=0"))
        .hasMessage("--concurrent-gc-syncs must be at least 1: 0");
  }

  @Test
  void goDurationsAsTimeParseDurationReadsThem() {
    assertThat(GoDuration.parse("15s")).contains(java.time.Duration.ofSeconds(15));
    assertThat(GoDuration.parse("1h2m3.5s")).contains(java.time.Duration.ofMillis(3_723_500));
    assertThat(GoDuration.parse("300ms")).contains(java.time.Duration.ofMillis(300));
    assertThat(GoDuration.parse("2us")).contains(java.time.Duration.ofNanos(2_000));
    assertThat(GoDuration.parse("0")).contains(java.time.Duration.ZERO);
    assertThat(GoDuration.parse("-1.5h")).contains(java.time.Duration.ofMinutes(-90));
    for (String bad : List.of("", "s", "1", "1x", "1s2", ".s", "1 s")) {
      assertThat(GoDuration.parse(bad)).as(bad).isEmpty();
    }
    // Go's Duration.String for the defaults the usage shows
    assertThat(GoDuration.format(java.time.Duration.ofSeconds(15))).isEqualTo("15s");
    assertThat(GoDuration.format(java.time.Duration.ofSeconds(90))).isEqualTo("1m30s");
    assertThat(GoDuration.format(java.time.Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(GoDuration.format(java.time.Duration.ofMillis(500))).isEqualTo("500ms");
    assertThat(GoDuration.format(java.time.Duration.ofHours(1))).isEqualTo("1h0m0s");
  }

  @Test
  void helpPrintsTheUsageAndExitsZero() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(Serve.execute(new String[] {"--help"}, print(out), print(err))).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(ServeOptions.usage());
    assertThat(err.size()).isZero();
  }

  @Test
  void aBadFlagIsReportedOnStderrWithExitCodeTwo() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(Serve.execute(new String[] {"--secure-port=x"}, print(out), print(err)))
        .isEqualTo(2);
    assertThat(out.size()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(
        "apiserver4j-server: --secure-port must be a number: x\n"
            + "run with --help to list the flags\n");
  }

  /** The real process: what a shell script sees. */
  @Test
  void theProcessExitsTwoOnABadFlag() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        Serve.class.getName(), "--no-such-flag").redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(stderr).contains("apiserver4j-server: unknown flag: --no-such-flag\n"
        + "run with --help to list the flags\n");
  }

  private static PrintStream print(ByteArrayOutputStream out) {
    return new PrintStream(out, true, StandardCharsets.UTF_8);
  }
}
