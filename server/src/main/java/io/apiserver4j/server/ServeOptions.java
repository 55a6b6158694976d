/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.controllers.ClusterSigning;
import io.apiserver4j.controllers.ControllerManager;
import io.apiserver4j.controllers.LeaderElection;
import io.apiserver4j.kubeapi.KubeVersion;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The command line of the server, with kube-apiserver's flag names.
 *
 * <p>Each flag is one constant below, registered in the table by {@link #define}: adding a flag
 * is adding one constant (above {@link #HELP}, which the help lists last) and reading it where the
 * server is built, with {@link #get}. Checks between flags are one {@link #require} each. The
 * parsed options are immutable.
 */
final class ServeOptions {
  private static final List<Flag<?>> TABLE = new ArrayList<>();
  private static final List<Consumer<ServeOptions>> CHECKS = new ArrayList<>();

  static final Flag<Integer> SECURE_PORT = define(Flag.port("--secure-port", 8080,
      "port to serve on; 0 picks a free one (HTTP unless --tls-cert-file is given)")
      .alias("--port"));
  static final Flag<String> BIND_ADDRESS = define(Flag.string("--bind-address", "ADDRESS",
      "127.0.0.1", "address to listen on; other than loopback, requests should authenticate")
      .alias("--host"));
  static final Flag<List<URI>> ETCD_SERVERS = define(Flag.urls(
      "--etcd-servers", "store objects in etcd at these client URLs (default: in memory)")
      .alias("--etcd"));
  static final Flag<String> AUTHORIZATION_MODE = define(Flag.choice("--authorization-mode",
      "AlwaysAllow", Set.of("AlwaysAllow", "RBAC"),
      "RBAC: roles and bindings decide, with kube's bootstrap policy (needs TLS)"));
  static final Flag<Optional<Path>> TOKEN_AUTH_FILE = define(Flag.file(
      "--token-auth-file", "bearer tokens in kube's CSV form: token,user,uid,\"group1,group2\""
          + " (needs TLS)"));
  static final Flag<Optional<Path>> TLS_CERT_FILE = define(Flag.file(
      "--tls-cert-file", "serve HTTPS with this PEM certificate (chain); when requests"
          + " authenticate and none is given, a self-signed one is generated in --cert-dir"));
  static final Flag<Optional<Path>> TLS_PRIVATE_KEY_FILE = define(Flag.file(
      "--tls-private-key-file", "the PEM private key of --tls-cert-file"));
  static final Flag<Optional<Path>> CLIENT_CA_FILE = define(Flag.file("--client-ca-file",
      "authenticate client certificates signed by a CA of this PEM bundle: the common name is"
          + " the user, the organizations its groups (needs TLS)"));
  static final Flag<Boolean> ANONYMOUS_AUTH = define(Flag.bool("--anonymous-auth", true,
      "when requests authenticate, let those without credentials in as system:anonymous (group"
          + " system:unauthenticated), for the authorizer to judge; false answers them 401"));
  static final Flag<String> SERVICE_ACCOUNT_ISSUER = define(Flag.string(
      "--service-account-issuer", "URL", "https://kubernetes.default.svc.cluster.local",
      "the issuer (iss) of ServiceAccount tokens, also their default audience"));
  static final Flag<Optional<Path>> SERVICE_ACCOUNT_SIGNING_KEY_FILE = define(Flag.file(
      "--service-account-signing-key-file", "the PEM private key that signs ServiceAccount"
          + " tokens (default: a key generated at start, so tokens end with the process)"));
  static final Flag<Optional<Path>> SERVICE_ACCOUNT_KEY_FILE = define(Flag.file(
      "--service-account-key-file", "PEM public keys or certificates that verify"
          + " ServiceAccount tokens (default: the signing key)"));
  static final Flag<Optional<Path>> AUDIT_POLICY_FILE = define(Flag.file("--audit-policy-file",
      "an audit.k8s.io/v1 Policy; with --audit-log-path, requests are audited as it says"));
  static final Flag<String> AUDIT_LOG_PATH = define(Flag.string("--audit-log-path", "FILE", "",
      "write audit events as JSON lines to FILE (- for standard output)"));
  static final Flag<Integer> AUDIT_LOG_MAXSIZE = define(Flag.count("--audit-log-maxsize", 100,
      "megabytes of an audit log file before it is rotated"));
  static final Flag<Integer> AUDIT_LOG_MAXBACKUP = define(Flag.count("--audit-log-maxbackup",
      100, "rotated audit log files to keep (0: all)"));
  static final Flag<Integer> AUDIT_LOG_MAXAGE = define(Flag.count("--audit-log-maxage", 366,
      "days to keep rotated audit log files (0: forever)"));
  static final Flag<KubeVersion> EMULATED_VERSION = define(Flag.of(
      "--emulated-version", "VERSION", KubeVersion.latest(), "the Kubernetes release whose API"
          + " is served, as kube-apiserver's flag: major.minor (or kube=major.minor), "
          + KubeVersion.all().get(0) + ".." + KubeVersion.latest(), ServeOptions::emulatedVersion));
  static final Flag<String> FEATURE_GATES = define(Flag.string("--feature-gates",
      "NAME=BOOL,...", "", "feature gates to set, as kube-apiserver's flag (optionally"
          + " kube:-prefixed), checked at the --emulated-version: disabled gates' fields are"
          + " dropped from the objects written, as kube does"));
  static final Flag<String> SERVICE_CLUSTER_IP_RANGE = define(Flag.of(
      "--service-cluster-ip-range", "CIDR", "10.0.0.0/24", "the range Services' cluster IPs"
          + " are allocated from; the kubernetes Service gets its first address",
      v -> checked(v, r -> ApiServer.builder().serviceClusterIpRange(r))));
  static final Flag<String> SERVICE_NODE_PORT_RANGE = define(Flag.of(
      "--service-node-port-range", "MIN-MAX", "30000-32767",
      "the ports NodePort and LoadBalancer Services' node ports are allocated from",
      v -> checked(v, r -> ApiServer.builder().serviceNodePortRange(r))));
  static final Flag<List<String>> ENABLE_ADMISSION_PLUGINS = define(Flag.of(
      "--enable-admission-plugins", "NAMES", List.of(), "admission plugins to enable besides"
          + " kube-apiserver 1.36's default ones (comma-separated, e.g. NamespaceAutoProvision)",
      ServeOptions::names));
  static final Flag<List<String>> DISABLE_ADMISSION_PLUGINS = define(Flag.of(
      "--disable-admission-plugins", "NAMES", List.of(), "default admission plugins to switch"
          + " off (comma-separated, e.g. ServiceAccount,LimitRanger)", ServeOptions::names));
  static final Flag<Optional<Path>> ADMISSION_CONTROL_CONFIG_FILE = define(Flag.file(
      "--admission-control-config-file", "an AdmissionConfiguration with the plugins'"
          + " configurations"));
  static final Flag<Optional<Path>> CERT_DIR = define(Flag.file("--cert-dir",
      "where the self-signed serving certificate is written (default: a new temporary"
          + " directory)"));
  static final Flag<Optional<Path>> KUBECONFIG = define(Flag.file("--kubeconfig",
      "write a kubeconfig for this server to FILE (the admin's credentials when requests"
          + " authenticate)"));
  static final Flag<List<String>> CONTROLLERS = define(Flag.of("--controllers", "NAMES",
      List.of("*"), "kube-controller-manager's controllers to run, as its flag: * for those on"
          + " by default, NAME to enable one, -NAME to disable one, by name or alias"
          + " (comma-separated, e.g. *,-garbagecollector); implemented: "
          + String.join(", ", ControllerManager.select(List.of("*"))),
      v -> {
        List<String> n = names(v);
        ControllerManager.select(n);
        return n;
      }));
  static final Flag<Boolean> LEADER_ELECT = define(Flag.bool("--leader-elect", true,
      "run the controllers only while this server holds the kube-system/kube-controller-manager"
          + " Lease, as kube-controller-manager: of several servers on one etcd one runs them"));
  static final Flag<Duration> LEADER_ELECT_LEASE_DURATION = define(Flag.duration(
      "--leader-elect-lease-duration", Duration.ofSeconds(15), "how long the other servers wait,"
          + " after the lease last changed, before taking it over"));
  static final Flag<Duration> LEADER_ELECT_RENEW_DEADLINE = define(Flag.duration(
      "--leader-elect-renew-deadline", Duration.ofSeconds(10), "how long the leader tries to"
          + " renew the lease before it stops its controllers"));
  static final Flag<Duration> LEADER_ELECT_RETRY_PERIOD = define(Flag.duration(
      "--leader-elect-retry-period", Duration.ofSeconds(2), "the wait between attempts to"
          + " acquire or renew the lease"));
  /** {@code --concurrent-<name>-syncs} of every implemented controller that has workers. */
  static final Map<String, Flag<Integer>> CONCURRENT_SYNCS = defineConcurrentSyncs();
  static final Flag<Integer> TERMINATED_POD_GC_THRESHOLD = define(Flag.atLeast(
      "--terminated-pod-gc-threshold", Integer.MIN_VALUE, 12500, "terminated Pods that may"
          + " exist before podgc deletes the oldest (0 or less: never for that reason)"));
  /** kube-controller-manager's {@code --cluster-signing-*-file} flags, by name without dashes. */
  static final Map<String, Flag<String>> CLUSTER_SIGNING_FILES = defineClusterSigningFiles();
  static final Flag<Duration> CLUSTER_SIGNING_DURATION = define(Flag.duration(
      "--cluster-signing-duration", ClusterSigning.DEFAULT_DURATION, "the longest validity"
          + " csrsigning gives a certificate, as kube-controller-manager's flag"));
  static final Flag<Optional<Path>> SERVICE_ACCOUNT_PRIVATE_KEY_FILE = define(Flag.file(
      "--service-account-private-key-file", "the PEM private key the serviceaccount-token"
          + " controller signs Secret tokens with (without it that controller does not run);"
          + " give the same key to --service-account-signing-key-file or"
          + " --service-account-key-file so that the tokens are accepted"));
  static final Flag<Optional<Path>> ROOT_CA_FILE = define(Flag.file("--root-ca-file",
      "the CA bundle the serviceaccount-token controller writes into token Secrets as ca.crt"
          + " (default: the server's CA)"));
  static final Flag<Integer> SIMULATED_NODES = define(Flag.count("--simulated-nodes", 0,
      "register N simulated Nodes (node-1 .. node-N) and run the default scheduler and their"
          + " kubelets, so Pods are bound and run (0: none)"));
  static final Flag<Optional<Path>> SIMULATED_NODES_CONFIG = define(Flag.file(
      "--simulated-nodes-config", "a YAML file describing the simulated Nodes and Pod"
          + " durations (see SimulatedCluster.Builder#configuration); implies the scheduler"
          + " and kubelets"));
  static final Flag<Boolean> HELP = define(Flag.bool("--help", false, "show this help")
      .alias("-h"));

  static {
    require(ServeOptions::clusterSigning);
    require(o -> {
      if (o.get(LEADER_ELECT)) {
        // client-go's checks, with its messages
        new LeaderElection("check", o.get(LEADER_ELECT_LEASE_DURATION),
            o.get(LEADER_ELECT_RENEW_DEADLINE), o.get(LEADER_ELECT_RETRY_PERIOD));
      }
    });
    require(o -> {
      if (o.get(TLS_CERT_FILE).isPresent() != o.get(TLS_PRIVATE_KEY_FILE).isPresent()) {
        throw new IllegalArgumentException(
            "--tls-cert-file and --tls-private-key-file go together");
      }
    });
  }

  private final Map<Flag<?>, Object> values;

  private ServeOptions(Map<Flag<?>, Object> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  private static Map<String, Flag<Integer>> defineConcurrentSyncs() {
    Map<String, Flag<Integer>> out = new LinkedHashMap<>();
    ControllerManager.concurrentSyncsDefaults().forEach((name, workers) -> out.put(name,
        define(Flag.atLeast("--concurrent-" + name + "-syncs", 1, workers,
            "objects the controller behind it syncs at once (its workers), as"
                + " kube-controller-manager's flag"))));
    return java.util.Collections.unmodifiableMap(out);
  }

  private static Map<String, Flag<String>> defineClusterSigningFiles() {
    Map<String, Flag<String>> out = new LinkedHashMap<>();
    out.put("cluster-signing-cert-file", define(Flag.string("--cluster-signing-cert-file",
        "FILE", "", "the PEM X.509 CA certificate csrsigning issues certificates with, for"
            + " every built-in signer (default: a CA generated in memory)")));
    out.put("cluster-signing-key-file", define(Flag.string("--cluster-signing-key-file",
        "FILE", "", "the PEM RSA or ECDSA private key of --cluster-signing-cert-file")));
    for (String signer : List.of("kubelet-serving", "kubelet-client", "kube-apiserver-client",
        "legacy-unknown")) {
      for (String part : List.of("cert", "key")) {
        String name = "cluster-signing-" + signer + "-" + part + "-file";
        out.put(name, define(Flag.string("--" + name, "FILE", "", part.equals("cert")
            ? "the PEM CA certificate of the " + signer + " signer alone; not with"
                + " --cluster-signing-{cert,key}-file"
            : "the PEM private key of --cluster-signing-" + signer + "-cert-file")));
      }
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  /**
   * The csrsigning controller's configuration from the {@code --cluster-signing-*} flags.
   *
   * @throws IllegalArgumentException with kube-controller-manager's validation messages
   */
  ClusterSigning clusterSigning() {
    ClusterSigning.Builder b = ClusterSigning.builder()
        .duration(get(CLUSTER_SIGNING_DURATION));
    CLUSTER_SIGNING_FILES.forEach((name, flag) -> b.file(name, get(flag)));
    return b.build();
  }

  /** A comma-separated list of names, as kube's string-slice flags read it. */
  private static List<String> names(String value) {
    List<String> out = new ArrayList<>();
    for (String n : value.split(",")) {
      if (!n.isBlank()) {
        out.add(n.strip());
      }
    }
    return List.copyOf(out);
  }

  /** {@code value}, once {@code check} (a builder method that validates) accepts it. */
  // component-base's emulation flag takes "component=version" pairs; kube-apiserver's own
  // component is "kube", and a bare version means it
  private static KubeVersion emulatedVersion(String value) {
    String version = value;
    int eq = value.indexOf('=');
    if (eq >= 0) {
      String component = value.substring(0, eq).trim();
      if (!component.equals("kube")) {
        throw new IllegalArgumentException("unknown component: " + component);
      }
      version = value.substring(eq + 1);
    }
    return KubeVersion.parse(version);
  }

  private static String checked(String value, java.util.function.Consumer<String> check) {
    check.accept(value);
    return value;
  }

  private static <T> Flag<T> define(Flag<T> flag) {
    List<String> names = new ArrayList<>(flag.aliases());
    names.add(flag.name());
    for (Flag<?> f : TABLE) {
      for (String n : names) {
        if (f.name().equals(n) || f.aliases().contains(n)) {
          throw new IllegalStateException("flag " + n + " is declared twice");
        }
      }
    }
    TABLE.add(flag);
    return flag;
  }

  static {
    // gates depend on the emulated release: component-base checks them once both are parsed
    require(o -> io.apiserver4j.kubeapi.FeatureGates.parse(o.get(EMULATED_VERSION),
        o.get(FEATURE_GATES)));
  }

  private static void require(Consumer<ServeOptions> check) {
    CHECKS.add(check);
  }

  /** Every flag, in the order of the help. */
  static List<Flag<?>> flags() {
    return List.copyOf(TABLE);
  }

  /** The value of {@code flag}: as given, else its default. */
  <T> T get(Flag<T> flag) {
    requireNonNull(flag, "flag");
    @SuppressWarnings("unchecked")
    T v = (T) values.get(flag);
    return v != null ? v : flag.defaultValue();
  }

  /** Whether the command line gave {@code flag}. */
  boolean isSet(Flag<?> flag) {
    return values.containsKey(flag);
  }

  /** Whether requests must authenticate (a token file or RBAC asks for it). */
  boolean authenticates() {
    return rbac() || get(TOKEN_AUTH_FILE).isPresent() || get(CLIENT_CA_FILE).isPresent();
  }

  /** The {@code --concurrent-<name>-syncs} values the command line gave, by name. */
  Map<String, Integer> concurrentSyncs() {
    Map<String, Integer> out = new LinkedHashMap<>();
    CONCURRENT_SYNCS.forEach((name, flag) -> {
      if (isSet(flag)) {
        out.put(name, get(flag));
      }
    });
    return out;
  }

  boolean rbac() {
    return get(AUTHORIZATION_MODE).equals("RBAC");
  }

  /**
   * Parses {@code --name value} and {@code --name=value} arguments.
   *
   * @throws IllegalArgumentException naming the bad argument
   */
  static ServeOptions parse(String... args) {
    Map<String, Flag<?>> byName = new HashMap<>();
    for (Flag<?> f : TABLE) {
      byName.put(f.name(), f);
      f.aliases().forEach(a -> byName.put(a, f));
    }
    Map<Flag<?>, Object> values = new IdentityHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("-") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      Flag<?> flag = byName.get(name);
      if (flag == null) {
        throw new IllegalArgumentException(arg.startsWith("-") ? "unknown flag: " + name
            : "unexpected argument: " + arg + " (flags start with --)");
      }
      if (value == null) {
        if (flag.isBoolean()) {
          value = "true";
        } else if (i + 1 < args.length) {
          value = args[++i];
        } else {
          throw new IllegalArgumentException(name + " needs a value (" + flag.valueName() + ")");
        }
      }
      values.put(flag, flag.parse(value));
    }
    ServeOptions o = new ServeOptions(values);
    if (!o.get(HELP)) {
      CHECKS.forEach(c -> c.accept(o));
    }
    return o;
  }

  static String usage() {
    StringBuilder sb = new StringBuilder("usage: apiserver4j-server [flags]   (scripts/serve)\n\n"
        + "Serves the Kubernetes API with the built-in kinds, as kube-apiserver, and runs\n"
        + "kube-controller-manager's controllers beside it.\n\nflags:\n");
    for (Flag<?> f : TABLE) {
      sb.append("  ").append(f.name()).append(f.isBoolean() ? "" : " " + f.valueName())
          .append('\n');
      wrap(sb, f.help() + defaultText(f)
          + (f.aliases().isEmpty() ? "" : " (also " + String.join(", ", f.aliases()) + ")"));
    }
    return sb.toString();
  }

  /** Appends {@code text} indented, in lines of at most 80 columns. */
  private static void wrap(StringBuilder sb, String text) {
    String indent = "      ";
    int column = 0;
    for (String word : text.split(" ")) {
      if (column > 0 && column + 1 + word.length() > 80) {
        sb.append('\n');
        column = 0;
      }
      if (column == 0) {
        sb.append(indent).append(word);
        column = indent.length() + word.length();
      } else {
        sb.append(' ').append(word);
        column += 1 + word.length();
      }
    }
    sb.append('\n');
  }

  private static String defaultText(Flag<?> f) {
    Object d = f.defaultValue();
    boolean none = d instanceof Optional<?> opt && opt.isEmpty()
        || d instanceof List<?> l && l.isEmpty() || Boolean.FALSE.equals(d);
    if (none) {
      return "";
    }
    String text = d instanceof Duration dur ? GoDuration.format(dur)
        : d instanceof List<?> l ? String.join(",", l.stream().map(String::valueOf).toList())
        : String.valueOf(d);
    return " [default " + text + "]";
  }

  @Override
  public String toString() {
    return "ServeOptions" + values;
  }
}
