package io.apiserver4j.examples.serve;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.plugins.NamespaceLifecycle;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.BootstrapObjects;
import io.apiserver4j.auth.Bootstrap;
import io.apiserver4j.auth.RbacAuthorizer;
import io.apiserver4j.auth.RbacEscalationCheck;
import io.apiserver4j.auth.Reviews;
import io.apiserver4j.auth.TokenFile;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.http.Authenticator;
import io.apiserver4j.http.Authenticators;
import io.apiserver4j.http.Authorizer;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.Kubeconfig;
import io.apiserver4j.http.TlsOptions;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.etcd.CompactionPolicy;
import io.apiserver4j.storage.etcd.EtcdStore;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * The main job behind {@code scripts/serve}: an API server with the built-in kinds, its objects
 * in memory or in etcd ({@code --etcd URL}), served over HTTP on loopback for kubectl and other
 * clients, until Ctrl-C.
 *
 * <pre>
 * ./scripts/serve --port 8080 --kubeconfig /tmp/apiserver4j.kubeconfig
 * kubectl --kubeconfig /tmp/apiserver4j.kubeconfig get namespaces
 * </pre>
 */
public final class Serve {
  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");

  private Serve() {}

  public static void main(String[] args) throws InterruptedException {
    // Jetty's start-up chatter is noise here; warnings and errors still show
    if (System.getProperty("org.eclipse.jetty.LEVEL") == null) {
      System.setProperty("org.eclipse.jetty.LEVEL", "WARN");
    }
    ServeOptions options;
    try {
      options = ServeOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("serve: " + e.getMessage());
      System.err.print(ServeOptions.usage());
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(ServeOptions.usage());
      return;
    }
    run(options, System.out);
  }

  /** The namespaces kube-apiserver's bootstrap controller creates, so kubectl finds them. */
  static void createSystemNamespaces(ApiServer api) {
    for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
      ApiResponse r = api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, NAMESPACES)
          .body(MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Namespace"),
              "metadata", MapValue.ofEntries("name", Value.of(ns))))
          .fieldManager("apiserver4j-serve")
          .build());
      if (!r.isSuccess() && r.code() != 409) {
        throw new IllegalStateException("cannot create namespace " + ns + ": " + r.body());
      }
    }
  }

  /**
   * A started server; {@link #close()} stops HTTP, then the API server and its storage.
   *
   * @param adminToken the bearer token of the {@code system:masters} admin when requests
   *     authenticate (what the written kubeconfig carries)
   */
  record Running(ApiServer api, HttpApiServer http, int port, Optional<String> adminToken,
      Optional<RbacAuthorizer> rbac) implements AutoCloseable {
    @Override
    public void close() {
      http.close();
      api.close();
      rbac.ifPresent(RbacAuthorizer::close);
    }

    /** A kubeconfig for this server: the admin's token and the server certificate as CA. */
    Kubeconfig kubeconfig(ServeOptions options) {
      Kubeconfig.Builder b = http.kubeconfig();
      adminToken.ifPresent(b::token);
      options.security().tlsCert().ifPresent(cert -> {
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
    if (options.etcd().isEmpty()) {
      return InMemoryStore.create();
    }
    return EtcdStore.builder().endpoints(options.etcd())
        .compactionPolicy(CompactionPolicy.interval(Duration.ofMinutes(5)))
        .build();
  }

  /** Starts the server; the caller closes it. */
  static Running start(ServeOptions options) {
    ServeOptions.Security security = options.security();
    Store store = store(options);
    Optional<RbacAuthorizer> rbac = security.rbac() ? Optional.of(RbacAuthorizer.over(store))
        : Optional.empty();
    // NamespaceLifecycle is on in every kube-apiserver: writes into a missing or terminating
    // namespace are refused, and the system namespaces cannot be deleted
    ApiServer.Builder builder = ApiServer.builder()
        .store(store)
        .admission(namespaces -> {
          AdmissionChain.Builder chain = AdmissionChain.builder()
              .add(new NamespaceLifecycle(namespaces));
          rbac.ifPresent(r -> chain.add(new RbacEscalationCheck(r)));
          return chain.build();
        });
    // the review resources answer as the server authorizes: RBAC, or everything allowed
    Reviews.install(builder, rbac.isPresent() ? rbac.get() : Authorizer.allowAll());
    ApiServer api = builder.build();
    try {
      createSystemNamespaces(api);
      rbac.ifPresent(r -> {
        r.aggregateInto(api);
        Bootstrap.ensure(api);
      });
      HttpApiServer.Builder http = HttpApiServer.builder(api).host(options.host())
          .port(options.port());
      Optional<String> adminToken = Optional.empty();
      if (security.authenticates()) {
        // as kube-apiserver's loopback token: a random admin in system:masters
        adminToken = Optional.of(UUID.randomUUID().toString());
        Authenticator admin = Authenticators.bearerTokens(Map.of(adminToken.get(),
            UserInfo.of("admin", "system:masters")));
        http.authenticator(security.tokenFile().isPresent()
            ? Authenticators.firstOf(admin, TokenFile.read(security.tokenFile().get())) : admin);
      }
      if (security.tlsCert().isPresent()) {
        http.tls(TlsOptions.of(security.tlsCert().get(), security.tlsKey().orElseThrow()));
      }
      rbac.ifPresent(http::authorizer);
      HttpApiServer server = http.build();
      int port = server.start();
      // the rest of what kube-apiserver writes at start, now that its port is known
      BootstrapObjects.ensure(api, "127.0.0.1", port);
      return new Running(api, server, port, adminToken, rbac);
    } catch (IOException e) {
      api.close();
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      api.close();
      throw e;
    }
  }

  static void run(ServeOptions options, PrintStream out) throws InterruptedException {
    Running running;
    try {
      running = start(options);
    } catch (RuntimeException e) {
      System.err.println("serve: " + e.getMessage()
          + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""));
      System.exit(1);
      return;
    }
    HttpApiServer http = running.http();
    int port = running.port();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      out.println("shutting down");
      running.close();
      stopped.countDown();
    }, "serve-shutdown"));
    out.println("apiserver4j listening on " + http.url() + " (port " + port + "), storage: "
        + (options.etcd().isEmpty() ? "in memory" : "etcd " + options.etcd()));
    options.kubeconfig().ifPresent(file -> {
      running.kubeconfig(options).write(file);
      out.println("kubeconfig written to " + file.toAbsolutePath()
          + "; try: kubectl --kubeconfig " + file + " get namespaces");
    });
    out.println("press Ctrl-C to stop");
    out.flush();
    stopped.await();
  }
}
