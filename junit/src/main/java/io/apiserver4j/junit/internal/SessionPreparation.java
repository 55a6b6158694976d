/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.internal;

import io.apiserver4j.apiserver.BuiltinApi;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Reads the built-in API's definitions (their schema, strategies and data) on a daemon thread
 * when JUnit opens its first launcher session, before it discovers the tests: the first
 * {@code @ApiServerTest}'s server then finds them ready instead of reading them after JUnit's own
 * start. JUnit's runners (Surefire, Gradle, IDEs) load it as a {@link LauncherSessionListener}
 * service. The definitions are immutable and shared by every server of the JVM, so the work is
 * what the first server would do anyway; later sessions do nothing.
 */
public final class SessionPreparation implements LauncherSessionListener {
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  /** What {@link java.util.ServiceLoader} calls. */
  public SessionPreparation() {}

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    // the first server meets the same failure and reports it to its test
    ApiServerExtension.inBackground("apiserver4j-prepare-server",
        () -> BuiltinApi.load().definitions(), "the built-in API");
  }
}
