/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.auth.RbacAuthorizer;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.storage.InMemoryStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What RBAC adds to a request: a GET of a ConfigMap over HTTP on loopback (one keep-alive
 * HTTP/1.1 connection, {@code java.net.http}), by a bearer-token user who is not in
 * {@code system:masters}, with the server authorizing through {@link RbacAuthorizer} over
 * 1,000 Roles and 1,000 RoleBindings (plus 1,000 ClusterRoles and ClusterRoleBindings for other
 * users), against {@code AlwaysAllow} in the same run ({@code authorization} parameter). The
 * user's permission comes from the last RoleBinding written. {@code authorizeOnly} times the
 * authorizer's decision for the same request in process.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar RbacAuthorizationBenchmark}
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class RbacAuthorizationBenchmark {
  static final int ROLES = 1000;

  @Param({"AlwaysAllow", "RBAC"})
  public String authorization;

  InMemoryStore store;
  ApiServer api;
  RbacAuthorizer rbac;
  HttpApiServer http;
  HttpClient client;
  HttpRequest get;
  Authorizer authorizer;
  AuthorizationAttributes attributes;

  @Setup(Level.Trial)
  public void start() {
    store = InMemoryStore.create();
    api = ApiServer.builder().store(store).build();
    rbac = RbacAuthorizer.over(store);
    api.resources("v1", "namespaces").apply("bench",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"bench\"}}");
    for (int i = 0; i < ROLES; i++) {
      api.resources("rbac.authorization.k8s.io/v1", "roles").namespace("bench").apply("bench",
          """
          {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role",
           "metadata":{"name":"role-%1$d","namespace":"bench"},
           "rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list"],
                     "resourceNames":["cm-%1$d","cm"]}]}""".formatted(i));
      api.resources("rbac.authorization.k8s.io/v1", "rolebindings").namespace("bench")
          .apply("bench", """
          {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding",
           "metadata":{"name":"binding-%1$d","namespace":"bench"},
           "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"role-%1$d"},
           "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"user-%1$d"},
                       {"apiGroup":"rbac.authorization.k8s.io","kind":"Group",
                        "name":"group-%1$d"}]}""".formatted(i));
      api.resources("rbac.authorization.k8s.io/v1", "clusterroles").apply("bench", """
          {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",
           "metadata":{"name":"cluster-role-%1$d"},
           "rules":[{"apiGroups":["apps"],"resources":["deployments"],"verbs":["get"]}]}"""
          .formatted(i));
      api.resources("rbac.authorization.k8s.io/v1", "clusterrolebindings").apply("bench", """
          {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",
           "metadata":{"name":"cluster-binding-%1$d"},
           "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                      "name":"cluster-role-%1$d"},
           "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"Group",
                        "name":"cluster-group-%1$d"}]}""".formatted(i));
    }
    api.resources("v1", "configmaps").namespace("bench").apply("bench",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\","
            + "\"namespace\":\"bench\"},\"data\":{\"key\":\"value\"}}");
    String user = "user-" + (ROLES - 1);
    authorizer = authorization.equals("RBAC") ? rbac : Authorizer.allowAll();
    UserInfo requester = new UserInfo(user, "", List.of("group-x", "cluster-group-x",
        "system:authenticated"), Map.of());
    attributes = new AuthorizationAttributes(requester, "get", true, "", "v1", "configmaps", "",
        "bench", "cm", "/api/v1/namespaces/bench/configmaps/cm");
    if (!(authorizer.authorize(attributes) instanceof AuthorizationDecision.Allow)) {
      throw new IllegalStateException("the benchmark user may not read the ConfigMap");
    }
    http = HttpApiServer.builder(api)
        .authenticator(Authenticators.bearerTokens(Map.of("token",
            UserInfo.of(user, "group-x", "cluster-group-x"))))
        .authorizer(authorizer)
        .start();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    get = HttpRequest.newBuilder(URI.create(http.url()
            + "/api/v1/namespaces/bench/configmaps/cm"))
        .header("Authorization", "Bearer token").header("Accept", "application/json").GET()
        .build();
    if (get().statusCode() != 200) {
      throw new IllegalStateException("the benchmark user may not read the ConfigMap");
    }
  }

  @TearDown(Level.Trial)
  public void stop() {
    http.close();
    rbac.close();
    api.close();
  }

  HttpResponse<byte[]> get() {
    try {
      return client.send(get, HttpResponse.BodyHandlers.ofByteArray());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The authorizer's decision alone, in process, for the same request: what authorization adds
   * to each GET (the noise of a loaded machine hides less of it than the HTTP comparison).
   */
  @Benchmark
  public AuthorizationDecision authorizeOnly() {
    return authorizer.authorize(attributes);
  }

  @Benchmark
  public int getConfigMap() {
    HttpResponse<byte[]> r = get();
    if (r.statusCode() != 200) {
      throw new IllegalStateException("GET answered " + r.statusCode());
    }
    return r.body().length;
  }
}
