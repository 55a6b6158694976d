package io.apiserver4j.examples.serve;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * The command line of {@code scripts/serve}. Each option is one entry of {@link #OPTIONS}: a
 * new option (e.g. {@code --etcd URL}) is a new field, a new entry and a line of help.
 *
 * @param port the port to listen on (0 picks a free one)
 * @param host the address to bind
 * @param kubeconfig where to write a kubeconfig for the server, if anywhere
 * @param etcd etcd client URLs to store objects in; empty means in memory
 * @param security who may do what: kube-apiserver's authorization and TLS flags
 */
record ServeOptions(int port, String host, Optional<Path> kubeconfig, List<URI> etcd,
    boolean help, Security security) {

  static final ServeOptions DEFAULTS = new ServeOptions(8080, "127.0.0.1", Optional.empty(),
      List.of(), false, Security.NONE);

  ServeOptions {
    etcd = List.copyOf(etcd);
  }

  /** Options without the security flags (as before them). */
  ServeOptions(int port, String host, Optional<Path> kubeconfig, List<URI> etcd, boolean help) {
    this(port, host, kubeconfig, etcd, help, Security.NONE);
  }

  /**
   * kube-apiserver's {@code --authorization-mode} (AlwaysAllow or RBAC),
   * {@code --token-auth-file}, {@code --tls-cert-file} and {@code --tls-private-key-file}.
   */
  record Security(boolean rbac, Optional<Path> tokenFile, Optional<Path> tlsCert,
      Optional<Path> tlsKey) {
    static final Security NONE = new Security(false, Optional.empty(), Optional.empty(),
        Optional.empty());

    /** Whether requests must authenticate (a token file or RBAC asks for it). */
    boolean authenticates() {
      return rbac || tokenFile.isPresent();
    }
  }

  private ServeOptions with(Security s) {
    return new ServeOptions(port, host, kubeconfig, etcd, help, s);
  }

  /** An option taking one value: its help text and how it changes the options. */
  private record Option(String valueName, String help,
      BiFunction<ServeOptions, String, ServeOptions> apply) {}

  private static final Map<String, Option> OPTIONS = new TreeMap<>(Map.of(
      "--port", new Option("N", "port to listen on (default 8080; 0 picks a free port)",
          (o, v) -> new ServeOptions(parsePort(v), o.host, o.kubeconfig, o.etcd, o.help,
              o.security)),
      "--host", new Option("ADDRESS", "address to bind (default 127.0.0.1; others need"
          + " authentication)",
          (o, v) -> new ServeOptions(o.port, v, o.kubeconfig, o.etcd, o.help, o.security)),
      "--kubeconfig", new Option("FILE", "write a kubeconfig for this server to FILE (with the"
          + " admin's credentials when requests authenticate)",
          (o, v) -> new ServeOptions(o.port, o.host, Optional.of(Path.of(v)), o.etcd, o.help,
              o.security)),
      "--etcd", new Option("URL[,URL...]", "store objects in etcd at these client URLs"
          + " (default: in memory)",
          (o, v) -> new ServeOptions(o.port, o.host, o.kubeconfig, parseUrls(v), o.help,
              o.security)),
      "--authorization-mode", new Option("MODE", "AlwaysAllow (default) or RBAC: roles and"
          + " bindings decide, with kube's bootstrap policy; needs TLS",
          (o, v) -> o.with(new Security(authorizationMode(v), o.security.tokenFile(),
              o.security.tlsCert(), o.security.tlsKey()))),
      "--token-auth-file", new Option("FILE", "bearer tokens, kube's CSV: token,user,uid,"
          + "\"group1,group2\"; needs TLS",
          (o, v) -> o.with(new Security(o.security.rbac(), Optional.of(Path.of(v)),
              o.security.tlsCert(), o.security.tlsKey()))),
      "--tls-cert-file", new Option("FILE", "serve HTTPS with this PEM certificate",
          (o, v) -> o.with(new Security(o.security.rbac(), o.security.tokenFile(),
              Optional.of(Path.of(v)), o.security.tlsKey()))),
      "--tls-private-key-file", new Option("FILE", "the PEM private key of --tls-cert-file",
          (o, v) -> o.with(new Security(o.security.rbac(), o.security.tokenFile(),
              o.security.tlsCert(), Optional.of(Path.of(v)))))));

  /**
   * Parses {@code --name value} and {@code --name=value} arguments.
   *
   * @throws IllegalArgumentException naming the bad argument
   */
  static ServeOptions parse(String... args) {
    ServeOptions o = DEFAULTS;
    List<String> rest = new ArrayList<>(List.of(args));
    while (!rest.isEmpty()) {
      String arg = rest.remove(0);
      if (arg.equals("-h") || arg.equals("--help")) {
        o = new ServeOptions(o.port, o.host, o.kubeconfig, o.etcd, true, o.security);
        continue;
      }
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      Option option = OPTIONS.get(name);
      if (option == null) {
        throw new IllegalArgumentException("unknown argument: " + arg);
      }
      if (value == null) {
        if (rest.isEmpty()) {
          throw new IllegalArgumentException(name + " needs a value (" + option.valueName + ")");
        }
        value = rest.remove(0);
      }
      o = option.apply.apply(o, value);
    }
    Security sec = o.security;
    if (sec.tlsCert().isPresent() != sec.tlsKey().isPresent()) {
      throw new IllegalArgumentException("--tls-cert-file and --tls-private-key-file go together");
    }
    if (sec.authenticates() && sec.tlsCert().isEmpty()) {
      throw new IllegalArgumentException((sec.rbac() ? "--authorization-mode=RBAC"
          : "--token-auth-file") + " needs --tls-cert-file and --tls-private-key-file: kubectl"
          + " sends bearer tokens only over TLS");
    }
    return o;
  }

  private static boolean authorizationMode(String v) {
    switch (v) {
      case "AlwaysAllow":
        return false;
      case "RBAC":
        return true;
      default:
        throw new IllegalArgumentException("--authorization-mode: AlwaysAllow or RBAC, got: " + v);
    }
  }

  private static List<URI> parseUrls(String value) {
    List<URI> urls = new ArrayList<>();
    for (String part : value.split(",")) {
      URI uri = null;
      try {
        uri = URI.create(part.strip());
      } catch (IllegalArgumentException e) {
        // reported below, with the expected form
      }
      if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null || uri.getPort() < 0) {
        throw new IllegalArgumentException(
            "--etcd: expected http://HOST:PORT (or https), got: " + part);
      }
      urls.add(uri);
    }
    return urls;
  }

  static String usage() {
    StringBuilder sb = new StringBuilder("usage: scripts/serve [options]\n\n"
        + "Serves the Kubernetes API with the built-in kinds from memory.\n\noptions:\n");
    OPTIONS.forEach((name, o) -> sb.append(String.format("  %-26s %s%n",
        name + " " + o.valueName, o.help)));
    sb.append(String.format("  %-26s %s%n", "-h, --help", "show this help"));
    return sb.toString();
  }

  private static int parsePort(String v) {
    try {
      int p = Integer.parseInt(v);
      if (p < 0 || p > 65535) {
        throw new IllegalArgumentException("--port out of range: " + v);
      }
      return p;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--port must be a number: " + v);
    }
  }
}
