/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Nested;
import io.apiserver4j.http.ManualClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON-lines log with kube's rotation flags, whose semantics are those of the lumberjack
 * logger kube-apiserver uses: rotate before a write that would pass the size, backups named
 * {@code <name>-<UTC 2006-01-02T15-04-05.000><ext>}, the newest kept by count and age.
 */
class AuditLogSinkTest {
  private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.678Z");

  /** An event whose JSON line is a little over {@code kilobytes} KiB. */
  static AuditEvent event(String id, int kilobytes) {
    return new AuditEvent(AuditLevel.METADATA, id, AuditStage.RESPONSE_COMPLETE, "/healthz",
        "get", UserInfo.of("alice"), Optional.empty(), List.of("127.0.0.1"), "", Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), T0, T0,
        Map.of("example.com/padding", "x".repeat(kilobytes * 1024)));
  }

  static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  static List<String> ids(Path file) throws IOException {
    InputStream raw = Files.newInputStream(file);
    try (InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text.lines().map(l -> Nested.str(Json.read(l), "auditID")).toList();
    }
  }

  @Test
  void aWriteThatWouldPassTheSizeRotatesTheFileFirst(@TempDir Path dir) throws IOException {
    ManualClock clock = new ManualClock(T0);
    Path file = dir.resolve("logs/audit.log");
    try (AuditLogSink sink = AuditLogSink.builder(file).maxSizeMegabytes(1).maxBackups(2)
        .maxAgeDays(0).clock(clock).build()) {
      sink.process(event("a", 400));
      sink.process(event("b", 400));
      assertThat(names(file.getParent())).containsExactly("audit.log");
      sink.process(event("c", 400));
      assertThat(names(file.getParent()))
          .containsExactly("audit-2026-01-02T03-04-05.678.log", "audit.log");
      assertThat(ids(file.resolveSibling("audit-2026-01-02T03-04-05.678.log")))
          .containsExactly("a", "b");
      assertThat(ids(file)).containsExactly("c");
      for (String id : List.of("d", "e", "f", "g")) {
        clock.advance(Duration.ofSeconds(60));
        sink.process(event(id, 400));
      }
      // rotations before e and g: three backups, of which the newest two stay
      assertThat(names(file.getParent())).containsExactly("audit-2026-01-02T03-06-05.678.log",
          "audit-2026-01-02T03-08-05.678.log", "audit.log");
      assertThat(ids(file.resolveSibling("audit-2026-01-02T03-08-05.678.log")))
          .containsExactly("e", "f");
      assertThat(ids(file)).containsExactly("g");
    }
  }

  @Test
  void backupsOlderThanTheMaximumAgeGoAndTheRestAreCompressed(@TempDir Path dir)
      throws IOException {
    ManualClock clock = new ManualClock(T0);
    Path file = dir.resolve("audit.json");
    Files.writeString(dir.resolve("audit-2025-12-01T00-00-00.000.json"), "{}\n");
    Files.writeString(dir.resolve("audit-not-a-time.json"), "{}\n");
    try (AuditLogSink sink = AuditLogSink.builder(file).maxSizeMegabytes(1).maxBackups(0)
        .maxAgeDays(7).compress(true).clock(clock).build()) {
      sink.process(event("a", 600));
      sink.process(event("b", 600));
    }
    assertThat(names(dir)).containsExactly("audit-2026-01-02T03-04-05.678.json.gz",
        "audit-not-a-time.json", "audit.json");
    assertThat(ids(dir.resolve("audit-2026-01-02T03-04-05.678.json.gz"))).containsExactly("a");
    assertThat(ids(file)).containsExactly("b");
  }

  @Test
  void anExistingFileIsAppendedToOrRotatedWhenTheWriteWouldFillIt(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("audit.log");
    try (AuditLogSink sink = AuditLogSink.builder(file).clock(new ManualClock(T0)).build()) {
      sink.process(event("a", 1));
    }
    try (AuditLogSink sink = AuditLogSink.builder(file).clock(new ManualClock(T0)).build()) {
      sink.process(event("b", 1));
    }
    assertThat(ids(file)).containsExactly("a", "b");
    try (AuditLogSink sink = AuditLogSink.builder(file).maxSizeMegabytes(1)
        .clock(new ManualClock(T0)).build()) {
      sink.process(event("c", 1022));
    }
    assertThat(names(dir)).containsExactly("audit-2026-01-02T03-04-05.678.log", "audit.log");
    assertThat(ids(file)).containsExactly("c");
  }

  @Test
  void withoutAMaximumSizeTheFileNeverRotatesButALineLargerThanTheMaximumIsRefused(
      @TempDir Path dir) throws IOException {
    Path file = dir.resolve("audit.log");
    try (AuditLogSink sink = AuditLogSink.builder(file).maxSizeMegabytes(0).build()) {
      for (int i = 0; i < 3; i++) {
        sink.process(event("n" + i, 600));
      }
    }
    assertThat(names(dir)).containsExactly("audit.log");
    try (AuditLogSink sink = AuditLogSink.builder(dir.resolve("small.log")).maxSizeMegabytes(1)
        .build()) {
      AuditEvent huge = event("huge", 1100);
      int length = huge.toJsonLine().getBytes(StandardCharsets.UTF_8).length;
      assertThatThrownBy(() -> sink.process(huge)).isInstanceOf(UncheckedIOException.class)
          .hasRootCauseMessage("write length " + length + " exceeds maximum file size 1048576");
    }
  }

  @Test
  void aDashWritesToStandardOutput() throws IOException {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try (AuditLogSink sink = AuditLogSink.builder("-").build()) {
      sink.process(event("out", 0));
    } finally {
      System.setOut(original);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .isEqualTo(event("out", 0).toJsonLine());
  }

  @Test
  void negativeFlagsAreRefusedWithKubesMessages() {
    assertThatThrownBy(() -> AuditLogSink.builder("a.log").maxSizeMegabytes(-1))
        .hasMessage("--audit-log-maxsize -1 can't be a negative number");
    assertThatThrownBy(() -> AuditLogSink.builder("a.log").maxBackups(-2))
        .hasMessage("--audit-log-maxbackup -2 can't be a negative number");
    assertThatThrownBy(() -> AuditLogSink.builder("a.log").maxAgeDays(-3))
        .hasMessage("--audit-log-maxage -3 can't be a negative number");
  }

  @Test
  void eventsAreWrittenAsKubeWritesThemOneLineEach() {
    AuditEvent e = new AuditEvent(AuditLevel.METADATA, "5d0f6e1c-1234-4f5b-9a1b-0123456789ab",
        AuditStage.RESPONSE_COMPLETE, "/api/v1/namespaces/default/pods?limit=500", "list",
        new UserInfo("jane", "", List.of("dev", "system:authenticated"), Map.of()),
        Optional.empty(), List.of("10.0.0.1"), "kubectl/v1.32.0", Optional.of(
            new AuditEvent.ObjectReference("pods", "default", "", "", "", "v1", "", "")),
        Optional.empty(), Optional.empty(), Optional.empty(),
        Instant.parse("2026-01-02T03:04:05.1Z"), Instant.parse("2026-01-02T03:04:05.123456789Z"),
        Map.of());
    // Go: HTML characters escaped, MicroTime with six digits, empty fields left out
    assertThat(e.toJsonLine()).isEqualTo("{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\","
        + "\"level\":\"Metadata\",\"auditID\":\"5d0f6e1c-1234-4f5b-9a1b-0123456789ab\","
        + "\"stage\":\"ResponseComplete\",\"requestURI\":\"/api/v1/namespaces/default/pods?"
        + "limit=500\",\"verb\":\"list\",\"user\":{\"username\":\"jane\",\"groups\":[\"dev\","
        + "\"system:authenticated\"]},\"sourceIPs\":[\"10.0.0.1\"],\"userAgent\":"
        + "\"kubectl/v1.32.0\",\"objectRef\":{\"resource\":\"pods\",\"namespace\":\"default\","
        + "\"apiVersion\":\"v1\"},\"requestReceivedTimestamp\":\"2026-01-02T03:04:05.100000Z\","
        + "\"stageTimestamp\":\"2026-01-02T03:04:05.123456Z\"}\n");
  }
}
