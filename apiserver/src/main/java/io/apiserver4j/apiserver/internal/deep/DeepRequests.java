/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal.deep;


import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs requests whose bodies nest deeply on the server's bounded pool of threads with stacks large enough for the schema
 * walks (checking, validation, merging, field sets) at the decoders' depth limit of 10,000, so
 * that a value kube-apiserver accepts never overflows the caller's stack. Shallow requests, the
 * usual case, run on the caller's thread at no cost beyond a bounded scan of the body.
 */
public final class DeepRequests {
  private static final Logger LOG = LoggerFactory.getLogger(DeepRequests.class);
  /** Bodies nesting deeper than this run on a deep-stack thread. */
  static final int SHALLOW_DEPTH = 200;
  /** Reserved (not committed) stack of a deep-request thread: ~25 KiB a level at 10,000 levels. */
  static final long STACK_BYTES = 256L << 20;

  /** At most this many deep requests run at once per server. */
  static final int THREADS = 2;

  private final ThreadPoolExecutor executor;

  /** A pool with no thread yet. */
  public DeepRequests() {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory threads = r -> {
      Thread t = new Thread(null, r, "apiserver4j-deep-request-" + n.incrementAndGet(),
          STACK_BYTES);
      t.setDaemon(true);
      return t;
    };
    executor = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), threads);
    executor.allowCoreThreadTimeOut(true);
  }

  /**
   * Whether a request's body may nest deeper than {@link #SHALLOW_DEPTH}.
   *
   * @param raw the body's bytes as received, or null
   * @param body the body as a value, if the request carries one
   */
  public static boolean isDeep(byte[] raw, java.util.Optional<Value> body) {
    if (raw != null && rawDepthExceeds(raw, SHALLOW_DEPTH)) {
      return true;
    }
    return body.map(v -> depthExceeds(v, SHALLOW_DEPTH)).orElse(false);
  }

  /**
   * An upper bound on nesting in JSON or YAML text: brackets outside strings, and indentation
   * (YAML block nesting takes at least one column a level).
   */
  static boolean rawDepthExceeds(byte[] raw, int limit) {
    int depth = 0;
    int indent = 0;
    boolean lineStart = true;
    boolean inString = false;
    for (int i = 0; i < raw.length; i++) {
      byte b = raw[i];
      if (inString) {
        if (b == '\\') {
          i++;
        } else if (b == '"') {
          inString = false;
        }
        continue;
      }
      if (lineStart) {
        if (b == ' ' || b == '-') {
          if (++indent > limit) {
            return true;
          }
          continue;
        }
        lineStart = false;
      }
      switch (b) {
        case '"' -> inString = true;
        case '{', '[' -> {
          if (++depth > limit) {
            return true;
          }
        }
        case '}', ']' -> depth--;
        case '\n' -> {
          lineStart = true;
          indent = 0;
        }
        default -> { }
      }
    }
    return false;
  }

  /** Whether {@code root} nests deeper than {@code limit}; iterative, without boxing. */
  static boolean depthExceeds(Value root, int limit) {
    Value[] values = new Value[32];
    int[] depths = new int[32];
    int top = 0;
    values[0] = root;
    depths[0] = 0;
    top = 1;
    while (top > 0) {
      top--;
      Value v = values[top];
      int d = depths[top];
      values[top] = null;
      int size = v instanceof MapValue m ? m.size() : v instanceof ListValue l ? l.size() : 0;
      if (size == 0) {
        continue;
      }
      if (d + 1 > limit) {
        return true;
      }
      if (top + size > values.length) {
        int n = Math.max(values.length * 2, top + size);
        values = java.util.Arrays.copyOf(values, n);
        depths = java.util.Arrays.copyOf(depths, n);
      }
      for (int i = 0; i < size; i++) {
        Value child = v instanceof MapValue m ? m.valueAt(i) : ((ListValue) v).get(i);
        if (child instanceof MapValue || child instanceof ListValue) {
          values[top] = child;
          depths[top] = d + 1;
          top++;
        }
      }
    }
    return false;
  }

  /**
   * Runs {@code work} on one of this server's deep-stack threads and waits for it: at most
   * {@link #THREADS} run at once (others queue), created on first need and ended when idle.
   */
  public <T> T call(Supplier<T> work) {
    Future<T> f = executor.submit(work::get);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return f.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException r) {
            throw r;
          }
          if (cause instanceof StackOverflowError err) {
            LOG.error("a request overflowed the deep-request stack", err);
          }
          if (cause instanceof Error err) {
            throw err;
          }
          throw new IllegalStateException(cause);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Ends the deep-stack threads; queued requests still run. */
  public void close() {
    executor.shutdown();
  }
}
