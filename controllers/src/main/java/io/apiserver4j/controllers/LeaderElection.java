/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/**
 * How a {@link ControllerManager} takes part in kube-controller-manager's leader election
 * ({@code --leader-elect*} flags, client-go's leaderelection package): the identity it writes
 * as {@code holderIdentity} of the {@code kube-system/kube-controller-manager} Lease, and the
 * lease duration, renew deadline and retry period. Immutable; {@code with...} return copies.
 *
 * @param identity the holder identity; kube's is {@code <hostname>_<uuid>}
 * @param leaseDuration how long, on the server clock, a candidate waits after it last saw the
 *     lease change before taking it over ({@code --leader-elect-lease-duration}, 15s)
 * @param renewDeadline how long the leader keeps trying to renew before it stops leading
 *     ({@code --leader-elect-renew-deadline}, 10s)
 * @param retryPeriod how long a candidate waits between attempts to acquire or renew
 *     ({@code --leader-elect-retry-period}, 2s)
 */
public record LeaderElection(String identity, Duration leaseDuration, Duration renewDeadline,
    Duration retryPeriod) {
  /** client-go's {@code JitterFactor}: acquire attempts wait up to 1.2 retry periods more. */
  public static final double JITTER_FACTOR = 1.2;

  /**
   * Checks the values as client-go's {@code NewLeaderElector} does.
   *
   * @throws IllegalArgumentException with client-go's message when the lease duration is not
   *     greater than the renew deadline, the renew deadline not greater than 1.2 retry periods,
   *     a duration is not positive, or the identity is empty
   */
  public LeaderElection {
    requireNonNull(identity, "identity");
    requireNonNull(leaseDuration, "leaseDuration");
    requireNonNull(renewDeadline, "renewDeadline");
    requireNonNull(retryPeriod, "retryPeriod");
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException("leaseDuration must be greater than renewDeadline");
    }
    if (renewDeadline.toNanos() <= (long) (JITTER_FACTOR * retryPeriod.toNanos())) {
      throw new IllegalArgumentException(
          "renewDeadline must be greater than retryPeriod*JitterFactor");
    }
    if (leaseDuration.isNegative() || leaseDuration.isZero()) {
      throw new IllegalArgumentException("leaseDuration must be greater than zero");
    }
    if (renewDeadline.isNegative() || renewDeadline.isZero()) {
      throw new IllegalArgumentException("renewDeadline must be greater than zero");
    }
    if (retryPeriod.isNegative() || retryPeriod.isZero()) {
      throw new IllegalArgumentException("retryPeriod must be greater than zero");
    }
    if (identity.isEmpty()) {
      throw new IllegalArgumentException("Lock identity is empty");
    }
    if (leaseDuration.toSeconds() < 1) {
      // the Lease stores whole seconds; a shorter lease would be written as 0 and never hold
      throw new IllegalArgumentException("leaseDuration must be at least one second");
    }
  }

  /**
   * kube-controller-manager's defaults: identity {@code <hostname>_<random uuid>}, lease 15s,
   * renew deadline 10s, retry period 2s.
   */
  public static LeaderElection defaults() {
    return new LeaderElection(hostname() + "_" + UUID.randomUUID(), Duration.ofSeconds(15),
        Duration.ofSeconds(10), Duration.ofSeconds(2));
  }

  /** This configuration with another identity. */
  public LeaderElection withIdentity(String id) {
    return new LeaderElection(id, leaseDuration, renewDeadline, retryPeriod);
  }

  /** This configuration with other durations, checked together. */
  public LeaderElection withDurations(Duration lease, Duration renew, Duration retry) {
    return new LeaderElection(identity, lease, renew, retry);
  }

  /** The host name as Go's {@code os.Hostname} reads it on Linux, else Java's view of it. */
  static String hostname() {
    try {
      Path proc = Path.of("/proc/sys/kernel/hostname");
      if (Files.isReadable(proc)) {
        String name = Files.readString(proc, StandardCharsets.UTF_8).strip();
        if (!name.isEmpty()) {
          return name;
        }
      }
    } catch (IOException e) {
      // fall back to the resolver's name below
    }
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env.strip();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
