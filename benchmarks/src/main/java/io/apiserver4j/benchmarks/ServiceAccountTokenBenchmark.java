/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.auth.tokens.ServiceAccountTokens;
import io.apiserver4j.authz.AuthenticationRequest;
import io.apiserver4j.authz.AuthenticationResult;
import io.apiserver4j.authz.Authenticator;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Nested;
import io.apiserver4j.storage.InMemoryStore;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a ServiceAccount token costs, against the in-process GET of a ConfigMap it would
 * authorize ({@code getConfigMap}, the baseline of the same run): checking a token on a request
 * (signature, claims, ServiceAccount lookup) and issuing one through
 * {@code serviceaccounts/token}.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar ServiceAccountTokenBenchmark -prof gc}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class ServiceAccountTokenBenchmark {
  private static final GroupVersionResource CONFIG_MAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final GroupVersionResource SERVICE_ACCOUNTS =
      new GroupVersionResource("", "v1", "serviceaccounts");
  private InMemoryStore store;
  private ApiServer server;
  private Authenticator authenticator;
  private AuthenticationRequest request;
  private ApiRequest get;
  private ApiRequest tokenRequest;

  @Setup(Level.Trial)
  public void setUp() {
    store = InMemoryStore.create();
    ServiceAccountTokens tokens = ServiceAccountTokens.builder(store).build();
    server = tokens.install(ApiServer.builder().store(store)).build();
    server.handle(ApiRequest.builder(Verb.CREATE, SERVICE_ACCOUNTS).namespace("default")
        .body(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":"
            + "{\"name\":\"app\"}}")).build()).orThrow();
    server.handle(ApiRequest.builder(Verb.CREATE, CONFIG_MAPS).namespace("default")
        .body(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
            + "{\"name\":\"settings\"},\"data\":{\"a\":\"1\"}}")).build()).orThrow();
    get = ApiRequest.builder(Verb.GET, CONFIG_MAPS).namespace("default").name("settings")
        .build();
    tokenRequest = ApiRequest.builder(Verb.CREATE, SERVICE_ACCOUNTS).namespace("default")
        .name("app").subresource("token")
        .body(Json.read("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":"
            + "\"TokenRequest\",\"spec\":{}}")).build();
    String token = Nested.str(server.handle(tokenRequest).orThrow(), "status", "token");
    authenticator = tokens.authenticator();
    request = new AuthenticationRequest(Map.of("Authorization", List.of("Bearer " + token)),
        List.of(), new InetSocketAddress(0));
    if (!(authenticator.authenticate(request) instanceof AuthenticationResult.Authenticated)) {
      throw new IllegalStateException("the token does not authenticate");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    server.close();
    store.close();
  }

  @Benchmark
  public ApiResponse getConfigMap() {
    return server.handle(get);
  }

  @Benchmark
  public AuthenticationResult authenticateToken() {
    return authenticator.authenticate(request);
  }

  @Benchmark
  public ApiResponse issueToken() {
    return server.handle(tokenRequest);
  }
}
