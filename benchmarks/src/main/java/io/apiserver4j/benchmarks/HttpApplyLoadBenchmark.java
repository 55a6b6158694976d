/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.http.HttpApiServer;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.mockwebserver.MockWebServer;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The HTTP front under load: 16 concurrent clients on loopback, each a benchmark thread sending
 * one request at a time over its own keep-alive HTTP/1.1 connection, server and clients in one
 * JVM (so they share the machine's cores, as a sidecar would).
 *
 * <ul>
 *   <li>{@code serverSideApply}: a server-side apply (PATCH {@code application/apply-patch+yaml})
 *       of a Deployment, each thread its own Deployment, alternating {@code spec.replicas} so
 *       every apply merges, checks conflicts, validates and writes. Throughput, and latency
 *       percentiles from the sample-time mode (p0.99 is the p99). Its baseline
 *       {@code getBaseline} is a GET of the same Deployment over the same connection. Both with
 *       a minimal blocking client or {@code java.net.http} ({@code client} parameter, see
 *       {@link ApplyClient}).
 *   <li>{@code createGetUpdate}: create a ConfigMap (POST), read it (GET), replace it (PUT with
 *       its resourceVersion) — three requests per operation — against this server and, with the
 *       same {@code java.net.http} client code, against the fabric8 {@code KubernetesMockServer}
 *       in CRUD mode, the usual fake API server of Java tests ({@code server} parameter).
 * </ul>
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar HttpApplyLoadBenchmark}
 * (16 threads are fixed by {@code @Threads}; add {@code -prof gc} for allocation).
 */
@Threads(16)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 6, time = 5)
@Measurement(iterations = 5, time = 5)
public class HttpApplyLoadBenchmark {
  static final String DEPLOYMENT = """
      {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","namespace":"bench",\
      "labels":{"app":"nginx"}},"spec":{"replicas":%d,"selector":{"matchLabels":{"app":"nginx"}},\
      "template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"name":"nginx",\
      "image":"nginx:1.14.2","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"500m",\
      "memory":"128Mi"}}}]}}}}""";

  static final String CONFIG_MAP = """
      {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"bench"%s},\
      "data":{"key":"%s","other":"value"}}""";

  static HttpClient newClient() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  static HttpResponse<String> send(HttpClient client, HttpRequest request) {
    try {
      HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() >= 300) {
        throw new IllegalStateException(request.method() + " " + request.uri() + ": "
            + r.statusCode() + " " + r.body());
      }
      return r;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** An apiserver4j server over HTTP. */
  @State(Scope.Benchmark)
  public static class ApplyServer {
    ApiServer api;
    HttpApiServer http;
    URI base;
    /** Jetty's client, shared by the benchmark threads (a connection each). */
    JettyLoadClient jetty;

    @Setup(Level.Trial)
    public void start() {
      api = ApiServer.builder().build();
      http = HttpApiServer.builder(api).build();
      http.start();
      base = http.url();
      jetty = new JettyLoadClient(base, 64);
    }

    @TearDown(Level.Trial)
    public void stop() {
      jetty.close();
      http.close();
      api.close();
    }
  }

  /** The mock logs every request it serves (held here: loggers are only weakly referenced). */
  static final java.util.logging.Logger MOCK_LOG =
      java.util.logging.Logger.getLogger("okhttp3.mockwebserver");

  /**
   * The server of the create/get/update comparison. Every operation adds an object, so each
   * measurement iteration starts from an empty server (a fresh one, or the mock reset), keeping
   * iterations comparable.
   */
  @State(Scope.Benchmark)
  public static class CrudServer {
    @Param({"apiserver4j", "fabric8-mock"})
    public String server;

    ApiServer api;
    HttpApiServer http;
    KubernetesMockServer mock;
    volatile URI base;

    @Setup(Level.Iteration)
    public void start() {
      if (mock != null) {
        mock.reset();
        return;
      }
      if (server.equals("apiserver4j")) {
        api = ApiServer.builder().build();
        http = HttpApiServer.builder(api).build();
        http.start();
        base = http.url();
      } else {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        mock = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
            new KubernetesCrudDispatcher(), false);
        mock.init(InetAddress.getLoopbackAddress(), 0);
        base = URI.create("http://127.0.0.1:" + mock.getPort());
      }
    }

    @TearDown(Level.Iteration)
    public void stopIteration() {
      if (http != null) {
        http.close();
        api.close();
        http = null;
      }
    }

    @TearDown(Level.Trial)
    public void stop() {
      if (mock != null) {
        mock.destroy();
      }
    }
  }

  private static final AtomicInteger THREADS = new AtomicInteger();

  /** One client: its connection, its object names and a counter. */
  @State(Scope.Thread)
  public static class Client {
    final HttpClient client = newClient();
    final int id = THREADS.incrementAndGet();
    long n;
  }

  /**
   * One apply client: its Deployment (applied once at the start, so that the GET baseline finds
   * it) and its connection, made by Jetty's client ({@code jetty}, {@link JettyLoadClient}: less
   * CPU per request, so that the server gets more of the cores) or by {@code java.net.http} ({@code jdk}:
   * over 100 µs of CPU per request spent beside the server on the same cores).
   */
  @State(Scope.Thread)
  public static class ApplyClient {
    @Param({"jetty", "jdk"})
    public String client;

    final int id = THREADS.incrementAndGet();
    final String name = "web-" + id;
    final String path = "/apis/apps/v1/namespaces/bench/deployments/" + name;
    HttpClient jdk;
    JettyLoadClient jetty;
    URI base;
    long n;

    @Setup(Level.Trial)
    public void setUp(ApplyServer s) {
      base = s.base;
      if (client.equals("jdk")) {
        jdk = newClient();
      } else {
        jetty = s.jetty;
      }
      apply();
    }

    int apply() {
      String body = String.format(DEPLOYMENT, name, 1 + (n++ & 1));
      String target = path + "?fieldManager=bench&force=true";
      if (jetty != null) {
        return check("PATCH", target, jetty.send("PATCH", target,
            "application/apply-patch+yaml", body.getBytes(StandardCharsets.UTF_8)));
      }
      return send(jdk, HttpRequest.newBuilder(base.resolve(target))
          .header("Content-Type", "application/apply-patch+yaml")
          .method("PATCH", HttpRequest.BodyPublishers.ofString(body))
          .build()).body().length();
    }

    int get() {
      if (jetty != null) {
        return check("GET", path, jetty.get(path));
      }
      return send(jdk, HttpRequest.newBuilder(base.resolve(path)).GET().build()).body().length();
    }

    private static int check(String method, String target, JettyLoadClient.Response r) {
      if (r.status() >= 300) {
        throw new IllegalStateException(method + " " + target + ": " + r.status() + " "
            + r.text());
      }
      return r.body().length;
    }
  }

  @Benchmark
  @BenchmarkMode({Mode.Throughput, Mode.SampleTime})
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public int serverSideApply(ApplyServer s, ApplyClient c) {
    return c.apply();
  }

  /**
   * The baseline of {@link #serverSideApply}: a GET of the same Deployment over the same
   * connection (routing, HTTP, the store's read and the response, without the write path).
   */
  @Benchmark
  @BenchmarkMode({Mode.Throughput, Mode.SampleTime})
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public int getBaseline(ApplyServer s, ApplyClient c) {
    return c.get();
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public int createGetUpdate(CrudServer s, Client c) {
    String name = "cm-" + c.id + "-" + c.n++;
    String collection = "/api/v1/namespaces/bench/configmaps";
    send(c.client, HttpRequest.newBuilder(s.base.resolve(collection))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(String.format(CONFIG_MAP, name, "", "v1")))
        .build());
    String got = send(c.client, HttpRequest.newBuilder(s.base.resolve(collection + "/" + name))
        .GET().build()).body();
    String rv = resourceVersion(got);
    String updated = send(c.client, HttpRequest.newBuilder(s.base.resolve(collection + "/" + name))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(String.format(CONFIG_MAP, name,
            ",\"resourceVersion\":\"" + rv + "\"", "v2")))
        .build()).body();
    return updated.length();
  }

  /** The resourceVersion of a JSON object, found without a full parse (both servers differ). */
  static String resourceVersion(String json) {
    int i = json.indexOf("\"resourceVersion\":\"");
    if (i < 0) {
      throw new IllegalStateException("no resourceVersion in " + json);
    }
    int start = i + "\"resourceVersion\":\"".length();
    return json.substring(start, json.indexOf('"', start));
  }
}
