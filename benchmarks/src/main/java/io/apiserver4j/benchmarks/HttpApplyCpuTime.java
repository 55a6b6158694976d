/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.http.HttpApiServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@link HttpApplyLoadBenchmark}'s server-side apply with 16 clients, reported as CPU time per
 * request: the server's threads ({@code apiserver4j-http-*}) and the whole process (server and
 * clients), beside the same figures for a GET of the same object over the same connections (the
 * baseline: routing, HTTP and response encoding without the write path). On a machine shared
 * with other work, wall-clock throughput mostly measures the other work; CPU per request stays
 * comparable between two builds run one after the other. Not a JMH benchmark.
 *
 * <p>Run from the repository root:
 * {@code java -Xms1g -Xmx1g -cp benchmarks/target/benchmarks.jar
 * io.apiserver4j.benchmarks.HttpApplyCpuTime [requests per client] [rounds] [jetty|jdk]}
 * (the client: {@link JettyLoadClient}, the default, or {@code java.net.http})
 */
public final class HttpApplyCpuTime {
  private HttpApplyCpuTime() {}

  static final int CLIENTS = 16;

  public static void main(String[] args) throws Exception {
    int perClient = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    boolean jdk = args.length > 2 && args[2].equals("jdk");
    ApiServer api = ApiServer.builder().build();
    HttpApiServer http = HttpApiServer.builder(api).build();
    http.start();
    URI base = http.url();
    JettyLoadClient shared = new JettyLoadClient(base, 64);
    try {
      Sender[] clients = new Sender[CLIENTS];
      for (int i = 0; i < CLIENTS; i++) {
        clients[i] = jdk ? jdkSender(base) : jettySender(shared);
        clients[i].send(i, 0, true);
      }
      Map<String, Boolean> cases = new java.util.LinkedHashMap<>();
      cases.put("get", false);
      cases.put("serverSideApply", true);
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      var os = (com.sun.management.OperatingSystemMXBean)
          ManagementFactory.getOperatingSystemMXBean();
      Map<String, double[]> best = new HashMap<>();
      for (int r = 0; r <= rounds; r++) {
        for (var c : cases.entrySet()) {
          long server0 = serverCpu(threads);
          long process0 = os.getProcessCpuTime();
          long wall0 = System.nanoTime();
          run(clients, perClient, c.getValue());
          long wall = System.nanoTime() - wall0;
          long requests = (long) CLIENTS * perClient;
          double server = (serverCpu(threads) - server0) / 1e3 / requests;
          double process = (os.getProcessCpuTime() - process0) / 1e3 / requests;
          double rate = requests * 1e9 / wall;
          if (r == 0) {
            continue; // warm-up round
          }
          System.out.printf("%-16s round %d: server %.1f us/req CPU, process %.1f us/req CPU,"
              + " %.0f req/s wall%n", c.getKey(), r, server, process, rate);
          best.merge(c.getKey(), new double[] {server, process, rate},
              (a, b) -> new double[] {Math.min(a[0], b[0]), Math.min(a[1], b[1]),
                  Math.max(a[2], b[2])});
        }
      }
      for (var c : cases.keySet()) {
        double[] b = best.get(c);
        System.out.printf("%-16s best: server %.1f us/req CPU, process %.1f us/req CPU,"
            + " %.0f req/s wall%n", c, b[0], b[1], b[2]);
      }
    } finally {
      shared.close();
      http.close();
      api.close();
    }
  }

  /** One client's connection: the apply (or the GET) of its Deployment. */
  interface Sender {
    void send(int client, long n, boolean apply);
  }

  static String path(int client) {
    return "/apis/apps/v1/namespaces/bench/deployments/web-" + client;
  }

  static String applyBody(int client, long n) {
    return String.format(HttpApplyLoadBenchmark.DEPLOYMENT, "web-" + client, 1 + (n & 1));
  }

  static Sender jdkSender(URI base) {
    HttpClient c = HttpApplyLoadBenchmark.newClient();
    return (client, n, apply) -> HttpApplyLoadBenchmark.send(c, apply
        ? HttpRequest.newBuilder(base.resolve(path(client) + "?fieldManager=bench&force=true"))
            .header("Content-Type", "application/apply-patch+yaml")
            .method("PATCH", HttpRequest.BodyPublishers.ofString(applyBody(client, n))).build()
        : HttpRequest.newBuilder(base.resolve(path(client))).GET().build());
  }

  static Sender jettySender(JettyLoadClient c) {
    return (client, n, apply) -> {
      JettyLoadClient.Response r = apply
          ? c.send("PATCH", path(client) + "?fieldManager=bench&force=true",
              "application/apply-patch+yaml",
              applyBody(client, n).getBytes(java.nio.charset.StandardCharsets.UTF_8))
          : c.get(path(client));
      if (r.status() >= 300) {
        throw new IllegalStateException(path(client) + ": " + r.status() + " " + r.text());
      }
    };
  }

  static void run(Sender[] clients, int perClient, boolean apply)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(clients.length);
    List<Thread> workers = new ArrayList<>();
    Throwable[] failure = new Throwable[1];
    for (int i = 0; i < clients.length; i++) {
      int id = i;
      Thread t = new Thread(() -> {
        try {
          for (long n = 1; n <= perClient; n++) {
            clients[id].send(id, n, apply);
          }
        } catch (RuntimeException e) {
          synchronized (failure) {
            failure[0] = e;
          }
        } finally {
          done.countDown();
        }
      });
      workers.add(t);
      t.start();
    }
    done.await();
    synchronized (failure) {
      if (failure[0] != null) {
        throw new IllegalStateException("a client failed", failure[0]);
      }
    }
  }

  /** CPU time of the server's request threads, alive now (pool threads may come and go). */
  static long serverCpu(ThreadMXBean threads) {
    long sum = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("apiserver4j-http")) {
        long t = threads.getThreadCpuTime(info.getThreadId());
        if (t > 0) {
          sum += t;
        }
      }
    }
    return sum;
  }
}
