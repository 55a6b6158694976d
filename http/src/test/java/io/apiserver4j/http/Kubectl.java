/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code kubectl} found on the PATH against a test server, with its own
 * kubeconfig and cache directory. There is no fallback: without kubectl the tests fail, saying
 * how to get it ({@code scripts/test} installs it).
 */
public final class Kubectl {
  private final Path kubeconfig;
  private final Path home;
  private final String binary;

  /** The outcome of one run. */
  public record Result(int exitCode, String stdout, String stderr) {
    public String out() {
      return stdout;
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  public Kubectl(Path workDir, Kubeconfig config) {
    this.binary = find().orElseGet(() -> fail("kubectl is not on the PATH. The end-to-end tests"
        + " run the real kubectl; install it (scripts/test installs the Debian package"
        + " kubernetes-client) and run again."));
    this.home = workDir;
    this.kubeconfig = workDir.resolve("kubeconfig");
    config.write(kubeconfig);
  }

  public Path dir() {
    return home;
  }

  private int minor = -1;

  /**
   * kubectl's minor version (e.g. 32), from {@code kubectl version --client}; some output and
   * flags differ between the versions the tests must pass with (1.20 from Debian, 1.32).
   */
  public synchronized int minorVersion() {
    if (minor < 0) {
      Result r = run("version", "--client", "-o", "json");
      java.util.regex.Matcher m = java.util.regex.Pattern
          .compile("\"minor\":\\s*\"(\\d+)").matcher(r.stdout());
      if (r.exitCode() != 0 || !m.find()) {
        fail("cannot read the kubectl version: " + r);
      }
      minor = Integer.parseInt(m.group(1));
    }
    return minor;
  }

  /**
   * {@code --show-managed-fields} where kubectl has it (1.21+); older kubectl always shows
   * managed fields.
   */
  public String[] showManagedFields() {
    return minorVersion() >= 21 ? new String[] {"--show-managed-fields"} : new String[0];
  }

  static Optional<String> find() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String d : path.split(File.pathSeparator)) {
      Path p = Path.of(d, "kubectl");
      if (Files.isExecutable(p)) {
        return Optional.of(p.toString());
      }
    }
    return Optional.empty();
  }

  /** Writes {@code content} to a file in the work directory and returns its path. */
  public Path file(String name, String content) {
    try {
      Path p = home.resolve(name);
      Files.writeString(p, content);
      return p;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs kubectl with {@code args} and waits (at most a minute). */
  public Result run(String... args) {
    return runWithInput(null, args);
  }

  /** Runs kubectl with {@code stdin} as standard input. */
  public Result runWithInput(String stdin, String... args) {
    return run(stdin, 60, args);
  }

  /**
   * Runs kubectl with {@code args} and waits at most {@code seconds}, for runs that apply
   * many objects at once.
   */
  public Result runWithin(int seconds, String... args) {
    return run(null, seconds, args);
  }

  private Result run(String stdin, int seconds, String... args) {
    try {
      Process p = start(args);
      CompletableFuture<String> out = drain(p.getInputStream());
      CompletableFuture<String> err = drain(p.getErrorStream());
      if (stdin != null) {
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      p.getOutputStream().close();
      if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail("kubectl " + String.join(" ", args) + " did not finish within " + seconds + "s");
      }
      return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS),
          err.get(10, TimeUnit.SECONDS));
    } catch (Exception e) {
      throw new IllegalStateException("cannot run kubectl " + String.join(" ", args), e);
    }
  }

  /** Runs {@code args} and fails the test unless kubectl exits 0. */
  public String ok(String... args) {
    Result r = run(args);
    if (r.exitCode() != 0) {
      fail("kubectl " + String.join(" ", args) + " failed: " + r);
    }
    return r.stdout();
  }

  /** A kubectl that keeps running (e.g. {@code get -w}); lines of its output arrive in order. */
  public final class Background implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final CompletableFuture<String> err;

    Background(Process process) {
      this.process = process;
      this.err = drain(process.getErrorStream());
      Thread t = new Thread(() -> {
        try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(
            process.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            lines.add(line);
          }
        } catch (IOException e) {
          // the process ended
        }
      }, "kubectl-output");
      t.setDaemon(true);
      t.start();
    }

    /** The next output line, waiting up to {@code seconds}; fails the test if none comes. */
    public String nextLine(int seconds) throws InterruptedException {
      String l = lines.poll(seconds, TimeUnit.SECONDS);
      if (l == null) {
        String stderr = process.isAlive() ? "(still running)" : err.getNow("");
        fail("no output from kubectl within " + seconds + "s; stderr: " + stderr);
      }
      return l;
    }

    /** The next output line within {@code seconds}, or null. */
    public String pollLine(int seconds) throws InterruptedException {
      return lines.poll(seconds, TimeUnit.SECONDS);
    }

    public boolean isAlive() {
      return process.isAlive();
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  public Background background(String... args) throws IOException {
    return new Background(start(args));
  }

  private Process start(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(binary);
    cmd.add("--kubeconfig=" + kubeconfig);
    cmd.add("--cache-dir=" + home.resolve("cache"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile());
    Map<String, String> env = pb.environment();
    env.put("HOME", home.toString());
    env.remove("KUBECONFIG");
    env.put("KUBECTL_EXTERNAL_DIFF", "diff -u -N");
    return pb.start();
  }

  private static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "";
      }
    });
  }
}
