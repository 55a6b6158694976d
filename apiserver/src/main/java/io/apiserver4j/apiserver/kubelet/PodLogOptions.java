/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.kubelet;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * kube's {@code PodLogOptions} of a {@code pods/log} request, after validation: the container is
 * resolved, counts are in range and at most one of {@code sinceSeconds} and {@code sinceTime}
 * is set.
 *
 * @param container the container whose log is read
 * @param follow whether to stream the log as it grows
 * @param previous whether to read the previous instance of the container
 * @param timestamps whether each line starts with its RFC 3339 timestamp
 * @param sinceSeconds only lines of the last that many seconds
 * @param sinceTime only lines from that time on
 * @param tailLines only the last that many lines
 * @param limitBytes at most that many bytes
 */
public record PodLogOptions(String container, boolean follow, boolean previous,
    boolean timestamps, OptionalLong sinceSeconds, Optional<Instant> sinceTime,
    OptionalLong tailLines, OptionalLong limitBytes) {
  public PodLogOptions {
    requireNonNull(container, "container");
    requireNonNull(sinceSeconds, "sinceSeconds");
    requireNonNull(sinceTime, "sinceTime");
    requireNonNull(tailLines, "tailLines");
    requireNonNull(limitBytes, "limitBytes");
  }

  /** The options of {@code kubectl logs} without flags, for {@code container}. */
  public static PodLogOptions of(String container) {
    return new PodLogOptions(container, false, false, false, OptionalLong.empty(),
        Optional.empty(), OptionalLong.empty(), OptionalLong.empty());
  }

  /**
   * Applies {@code tailLines}, then {@code limitBytes} to a whole log, as the kubelet does; the
   * other options are the source's to honour.
   *
   * @param log the whole log, lines ended by newlines
   * @return what the kubelet would send
   */
  public String trim(String log) {
    requireNonNull(log, "log");
    String out = log;
    if (tailLines.isPresent()) {
      long keep = tailLines.getAsLong();
      int end = out.endsWith("\n") ? out.length() - 1 : out.length();
      int start = end;
      long lines = 0;
      if (keep == 0) {
        out = "";
      } else {
        while (start > 0) {
          if (out.charAt(start - 1) == '\n') {
            lines++;
            if (lines == keep) {
              break;
            }
          }
          start--;
        }
        out = out.substring(start);
      }
    }
    if (limitBytes.isPresent()) {
      byte[] bytes = out.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      if (bytes.length > limitBytes.getAsLong()) {
        out = new String(bytes, 0, (int) limitBytes.getAsLong(),
            java.nio.charset.StandardCharsets.UTF_8);
      }
    }
    return out;
  }
}
