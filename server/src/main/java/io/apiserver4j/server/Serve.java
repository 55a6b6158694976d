/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.admission.AdmissionConfigurationFile;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.cluster.SimulatedCluster;
import io.apiserver4j.apiserver.BootstrapObjects;
import io.apiserver4j.auth.Bootstrap;
import io.apiserver4j.auth.RbacAuthorizer;
import io.apiserver4j.auth.RbacEscalationCheck;
import io.apiserver4j.auth.Reviews;
import io.apiserver4j.auth.TokenFile;
import io.apiserver4j.auth.audit.Audit;
import io.apiserver4j.auth.audit.AuditLogSink;
import io.apiserver4j.auth.audit.AuditPolicy;
import io.apiserver4j.auth.tokens.ServiceAccountTokens;
import io.apiserver4j.authz.Authenticator;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.controllers.ControllerManager;
import io.apiserver4j.controllers.LeaderElection;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.Kubeconfig;
import io.apiserver4j.http.TlsOptions;
import io.apiserver4j.server.validate.ValidateCommand;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.etcd.CompactionPolicy;
import io.apiserver4j.storage.etcd.EtcdStore;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runnable server ({@code apiserver4j-server.jar}, what {@code scripts/serve} runs): an API
 * server with the built-in kinds, its objects in memory or in etcd ({@code --etcd-servers}),
 * served over HTTP(S) for kubectl and other clients, until Ctrl-C. Flags are kube-apiserver's;
 * {@code --help} lists them.
 *
 * <pre>
 * java -jar server/target/apiserver4j-server.jar --secure-port 8080 --kubeconfig /tmp/a4j.kubeconfig
 * kubectl --kubeconfig /tmp/a4j.kubeconfig get namespaces
 * </pre>
 *
 * <p>Exit codes: 0 after {@code --help} or a clean stop, 1 when the server cannot start, 2 for
 * a bad command line (the error and the usage on stderr).
 *
 * <p>{@code validate ...} as the first argument runs {@link ValidateCommand} instead: manifests
 * checked by an in-process server, without listening anywhere.
 */
public final class Serve {
  /** The exit code of a bad command line, as Go's flag package and kube-apiserver use. */
  static final int USAGE_ERROR = 2;
  private static final Logger LOG = LoggerFactory.getLogger(Serve.class);

  private Serve() {}

  public static void main(String[] args) throws InterruptedException {
    // Jetty's own start-up lines are kept to warnings by jetty-logging.properties
    int code = execute(args, System.out, System.err);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Parses {@code args} and serves until stopped; returns the process's exit code. */
  static int execute(String[] args, PrintStream out, PrintStream err)
      throws InterruptedException {
    if (args.length > 0 && args[0].equals("validate")) {
      return ValidateCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), System.in,
          out, err);
    }
    ServeOptions options;
    try {
      options = ServeOptions.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("apiserver4j-server: " + e.getMessage());
      err.println("run with --help to list the flags");
      err.flush();
      return USAGE_ERROR;
    }
    if (options.get(ServeOptions.HELP)) {
      out.print(ServeOptions.usage());
      out.flush();
      return 0;
    }
    return run(options, out, err);
  }

  /**
   * A started server; {@link #close()} stops HTTP, then the API server and its storage.
   *
   * @param adminToken the bearer token of the {@code system:masters} admin when requests
   *     authenticate (what the written kubeconfig carries)
   */
  record Running(ApiServer api, HttpApiServer http, int port, Optional<String> adminToken,
      Optional<RbacAuthorizer> rbac, Optional<AuditLogSink> auditLog,
      Optional<java.nio.file.Path> servingCertificate,
      Optional<ControllerManager> controllers, Optional<SimulatedCluster> cluster)
      implements AutoCloseable {
    @Override
    public void close() {
      cluster.ifPresent(SimulatedCluster::close);
      controllers.ifPresent(ControllerManager::close);
      http.close();
      api.close();
      rbac.ifPresent(RbacAuthorizer::close);
      auditLog.ifPresent(log -> {
        try {
          log.close();
        } catch (IOException e) {
          LOG.warn("cannot close the audit log", e);
        }
      });
    }

    /** A kubeconfig for this server: the admin's token and the server certificate as CA. */
    Kubeconfig kubeconfig(ServeOptions options) {
      Kubeconfig.Builder b = http.kubeconfig();
      adminToken.ifPresent(b::token);
      servingCertificate.ifPresent(cert -> {
        try {
          b.certificateAuthority(Files.readString(cert));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      return b.build();
    }
  }

  /** The store the options ask for; etcd compacts every five minutes, as kube-apiserver does. */
  static Store store(ServeOptions options) {
    if (options.get(ServeOptions.ETCD_SERVERS).isEmpty()) {
      return InMemoryStore.create();
    }
    return EtcdStore.builder().endpoints(options.get(ServeOptions.ETCD_SERVERS))
        .compactionPolicy(CompactionPolicy.interval(Duration.ofMinutes(5)))
        .build();
  }

  private static Optional<Authenticator> tokenFile(ServeOptions options) {
    Optional<java.nio.file.Path> file = options.get(ServeOptions.TOKEN_AUTH_FILE);
    try {
      return file.isPresent() ? Optional.of(TokenFile.read(file.get())) : Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read --token-auth-file " + file.get(), e);
    }
  }

  /**
   * The audit log kube-apiserver's {@code --audit-*} flags ask for: auditing is on when both a
   * policy and a log path are given, as in kube.
   */
  static Optional<AuditLogSink> auditLog(ServeOptions options) {
    String path = options.get(ServeOptions.AUDIT_LOG_PATH);
    if (path.isEmpty() || options.get(ServeOptions.AUDIT_POLICY_FILE).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(AuditLogSink.builder(path)
        .maxSizeMegabytes(options.get(ServeOptions.AUDIT_LOG_MAXSIZE))
        .maxBackups(options.get(ServeOptions.AUDIT_LOG_MAXBACKUP))
        .maxAgeDays(options.get(ServeOptions.AUDIT_LOG_MAXAGE))
        .build());
  }

  /**
   * The serving certificate: the given files, or, as kube-apiserver without
   * {@code --tls-cert-file}, a self-signed one when requests authenticate (kubectl sends
   * credentials only over TLS); none means plain HTTP.
   */
  static Optional<TlsOptions> servingTls(ServeOptions options) {
    if (options.get(ServeOptions.TLS_CERT_FILE).isPresent()) {
      return Optional.of(TlsOptions.of(options.get(ServeOptions.TLS_CERT_FILE).get(),
          options.get(ServeOptions.TLS_PRIVATE_KEY_FILE).orElseThrow()));
    }
    if (!options.authenticates()) {
      return Optional.empty();
    }
    java.nio.file.Path dir = options.get(ServeOptions.CERT_DIR).orElseGet(() -> {
      try {
        return Files.createTempDirectory("apiserver4j-certs");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    SelfSignedCertificate generated = SelfSignedCertificate.generate(dir);
    LOG.info("generated a self-signed serving certificate in {}", dir);
    return Optional.of(TlsOptions.of(generated.certificate(), generated.privateKey()));
  }

  /**
   * The CA kube-controller-manager's root CA publisher writes into every namespace's
   * {@code kube-root-ca.crt}: the last certificate of the serving chain (its CA; the certificate
   * itself when self-signed), else the client CA bundle; none without TLS and client CA.
   */
  static Optional<String> rootCa(ServeOptions options, Optional<TlsOptions> serving) {
    try {
      if (serving.isPresent()) {
        String chain = Files.readString(serving.get().certificateChain());
        int last = chain.lastIndexOf("-----BEGIN CERTIFICATE-----");
        return Optional.of(last < 0 ? chain : chain.substring(last).strip() + "\n");
      }
      if (options.get(ServeOptions.CLIENT_CA_FILE).isPresent()) {
        return Optional.of(Files.readString(options.get(ServeOptions.CLIENT_CA_FILE).get()));
      }
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** ServiceAccount tokens as kube-apiserver's {@code --service-account-*} flags configure them. */
  static ServiceAccountTokens serviceAccountTokens(ServeOptions options, Store store) {
    ServiceAccountTokens.Builder b = ServiceAccountTokens.builder(store)
        .issuer(options.get(ServeOptions.SERVICE_ACCOUNT_ISSUER));
    options.get(ServeOptions.SERVICE_ACCOUNT_SIGNING_KEY_FILE).ifPresent(b::signingKeyFile);
    options.get(ServeOptions.SERVICE_ACCOUNT_KEY_FILE).ifPresent(b::verificationKeyFile);
    return b.build();
  }

  /**
   * kube-controller-manager's controllers as its flags select them ({@code --controllers},
   * {@code --leader-elect*}, {@code --concurrent-*-syncs}, {@code --terminated-pod-gc-threshold}, {@code --cluster-signing-*},
   * {@code --service-account-private-key-file}, {@code --root-ca-file});
   * none when the selection is empty.
   */
  static Optional<ControllerManager> controllers(ServeOptions options, ApiServer api) {
    return controllers(options, api, Optional.empty());
  }

  /**
   * As {@link #controllers(ServeOptions, ApiServer)}, with the server's CA, which the
   * serviceaccount-token controller writes into token Secrets without {@code --root-ca-file}.
   */
  static Optional<ControllerManager> controllers(ServeOptions options, ApiServer api,
      Optional<String> rootCa) {
    List<String> values = options.get(ServeOptions.CONTROLLERS);
    if (ControllerManager.select(values).isEmpty()) {
      return Optional.empty();
    }
    ControllerManager.Builder b = ControllerManager.builder(api).controllers(values);
    options.concurrentSyncs().forEach(b::concurrentSyncs);
    if (options.isSet(ServeOptions.TERMINATED_POD_GC_THRESHOLD)) {
      b.terminatedPodGcThreshold(options.get(ServeOptions.TERMINATED_POD_GC_THRESHOLD));
    }
    b.clusterSigning(options.clusterSigning());
    options.get(ServeOptions.SERVICE_ACCOUNT_PRIVATE_KEY_FILE)
        .ifPresent(b::serviceAccountPrivateKeyFile);
    if (options.get(ServeOptions.ROOT_CA_FILE).isPresent()) {
      b.rootCaFile(options.get(ServeOptions.ROOT_CA_FILE).get());
    } else {
      // kube-controller-manager's fallback: the CA its kubeconfig trusts, this server's
      rootCa.ifPresent(b::rootCa);
    }
    if (options.get(ServeOptions.LEADER_ELECT)) {
      b.leaderElection(LeaderElection.defaults().withDurations(
          options.get(ServeOptions.LEADER_ELECT_LEASE_DURATION),
          options.get(ServeOptions.LEADER_ELECT_RENEW_DEADLINE),
          options.get(ServeOptions.LEADER_ELECT_RETRY_PERIOD)));
    }
    return Optional.of(b.start());
  }

  /** Starts the server; the caller closes it. */
  static Running start(ServeOptions options) {
    Store store = store(options);
    Optional<RbacAuthorizer> rbac = options.rbac() ? Optional.of(RbacAuthorizer.over(store))
        : Optional.empty();
    // kube-apiserver's default admission plugins (NamespaceLifecycle, ServiceAccount, ...) are
    // on unless --disable-admission-plugins names them
    ApiServer.Builder builder = ApiServer.builder()
        .store(store)
        .emulatedVersion(options.get(ServeOptions.EMULATED_VERSION))
        .featureGates(options.get(ServeOptions.FEATURE_GATES))
        .serviceClusterIpRange(options.get(ServeOptions.SERVICE_CLUSTER_IP_RANGE))
        .serviceNodePortRange(options.get(ServeOptions.SERVICE_NODE_PORT_RANGE))
        .enableAdmissionPlugins(options.get(ServeOptions.ENABLE_ADMISSION_PLUGINS)
            .toArray(String[]::new))
        .disableAdmissionPlugins(options.get(ServeOptions.DISABLE_ADMISSION_PLUGINS)
            .toArray(String[]::new))
        .admission(namespaces -> {
          AdmissionChain.Builder chain = AdmissionChain.builder();
          rbac.ifPresent(r -> chain.add(new RbacEscalationCheck(r)));
          return chain.build();
        });
    options.get(ServeOptions.ADMISSION_CONTROL_CONFIG_FILE).ifPresent(file ->
        builder.admissionConfiguration(AdmissionConfigurationFile.read(file)));
    Optional<TlsOptions> serving = servingTls(options);
    rootCa(options, serving).ifPresent(builder::rootCaCertificate);
    // the review resources answer as the server authorizes: RBAC, or everything allowed
    Reviews.install(builder, rbac.isPresent() ? rbac.get() : Authorizer.allowAll());
    Optional<Authenticator> tokenFile = tokenFile(options);
    ServiceAccountTokens tokens = serviceAccountTokens(options, store);
    tokens.install(builder, tokenFile.stream().toArray(Authenticator[]::new));
    ApiServer api = builder.build();
    try {
      rbac.ifPresent(r -> {
        r.aggregateInto(api);
        Bootstrap.ensure(api);
      });
      HttpApiServer.Builder http = HttpApiServer.builder(api)
          .host(options.get(ServeOptions.BIND_ADDRESS)).port(options.get(ServeOptions.SECURE_PORT));
      Optional<String> adminToken = Optional.empty();
      if (options.authenticates()) {
        // as kube-apiserver's loopback token: a random admin in system:masters
        adminToken = Optional.of(UUID.randomUUID().toString());
        Authenticator admin = Authenticators.bearerTokens(Map.of(adminToken.get(),
            UserInfo.of("admin", "system:masters")));
        List<Authenticator> chain = new ArrayList<>(List.of(admin));
        if (options.get(ServeOptions.CLIENT_CA_FILE).isPresent()) {
          chain.add(Authenticators.clientCertificates());
        }
        tokenFile.ifPresent(chain::add);
        chain.add(tokens.authenticator());
        http.authenticator(Authenticators.firstOf(chain.toArray(Authenticator[]::new)))
            .anonymous(options.get(ServeOptions.ANONYMOUS_AUTH));
      }
      serving.ifPresent(tls -> http.tls(
          options.get(ServeOptions.CLIENT_CA_FILE).map(tls::withClientCa).orElse(tls)));
      http.nonResourceDocuments(tokens.discoveryDocuments());
      Optional<AuditLogSink> auditLog = auditLog(options);
      auditLog.ifPresent(log -> http.auditor(Audit.of(
          AuditPolicy.read(options.get(ServeOptions.AUDIT_POLICY_FILE).orElseThrow()), log)));
      rbac.ifPresent(http::authorizer);
      HttpApiServer server = http.build();
      int port = server.start();
      // the rest of what kube-apiserver writes at start, now that its port is known
      BootstrapObjects.ensure(api, "127.0.0.1", port);
      Optional<ControllerManager> controllers = Optional.empty();
      Optional<SimulatedCluster> cluster;
      try {
        controllers = controllers(options, api, rootCa(options, serving));
        cluster = simulatedCluster(options, api);
      } catch (RuntimeException e) {
        controllers.ifPresent(ControllerManager::close);
        server.close();
        throw e;
      }
      return new Running(api, server, port, adminToken, rbac, auditLog,
          serving.map(TlsOptions::certificateChain), controllers, cluster);
    } catch (RuntimeException e) {
      api.close();
      throw e;
    }
  }

  /** The simulated Nodes {@code --simulated-nodes} or {@code --simulated-nodes-config} ask for. */
  private static Optional<SimulatedCluster> simulatedCluster(ServeOptions options, ApiServer api) {
    int count = options.get(ServeOptions.SIMULATED_NODES);
    Optional<java.nio.file.Path> config = options.get(ServeOptions.SIMULATED_NODES_CONFIG);
    if (count == 0 && config.isEmpty()) {
      return Optional.empty();
    }
    SimulatedCluster.Builder b = SimulatedCluster.builder(api);
    if (config.isPresent()) {
      try {
        b.configuration(java.nio.file.Files.readString(config.get()));
      } catch (IOException e) {
        throw new IllegalArgumentException("--simulated-nodes-config: cannot read "
            + config.get() + ": " + e.getMessage(), e);
      }
    }
    if (count > 0) {
      b.nodes(count);
    }
    return Optional.of(b.start());
  }

  private static int run(ServeOptions options, PrintStream out, PrintStream err)
      throws InterruptedException {
    Running running;
    try {
      running = start(options);
    } catch (RuntimeException e) {
      LOG.error("cannot start the server", e);
      err.println("apiserver4j-server: cannot start: " + e.getMessage()
          + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""));
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      out.println("shutting down");
      running.close();
      stopped.countDown();
    }, "serve-shutdown"));
    List<URI> etcd = options.get(ServeOptions.ETCD_SERVERS);
    out.println("apiserver4j listening on " + running.http().url() + " (port " + running.port()
        + "), storage: " + (etcd.isEmpty() ? "in memory" : "etcd " + etcd));
    out.println("controllers: " + running.controllers().map(c -> String.join(",",
        c.controllers()) + (options.get(ServeOptions.LEADER_ELECT)
            ? " (when this server holds the kube-controller-manager lease)" : ""))
        .orElse("none"));
    options.get(ServeOptions.KUBECONFIG).ifPresent(file -> {
      running.kubeconfig(options).write(file);
      out.println("kubeconfig written to " + file.toAbsolutePath()
          + "; try: kubectl --kubeconfig " + file + " get namespaces");
    });
    out.println("press Ctrl-C to stop");
    out.flush();
    stopped.await();
    return 0;
  }
}
