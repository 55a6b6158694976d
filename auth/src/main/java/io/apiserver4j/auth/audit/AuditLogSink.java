/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * kube-apiserver's JSON audit log ({@code --audit-log-path}): one {@code audit.k8s.io/v1}
 * event per line, written before the request goes on (kube's blocking mode). {@code -} writes to
 * standard output. Rotation follows kube's flags (its lumberjack logger): a file that would grow
 * past {@code --audit-log-maxsize} megabytes is renamed to
 * {@code <name>-<UTC time as 2006-01-02T15-04-05.000><ext>} and a new one started; then
 * backups beyond {@code --audit-log-maxbackup} (oldest first) and older than
 * {@code --audit-log-maxage} days are removed, and the rest gzipped when
 * {@code --audit-log-compress} is set. A size of 0 never rotates; 0 backups or days keep all.
 *
 * <p>Thread-safe; {@link #close()} releases the file.
 */
public final class AuditLogSink implements AuditSink, Closeable {
  private static final long MEGABYTE = 1024L * 1024L;
  private static final DateTimeFormatter BACKUP_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss.SSS");

  private final Path file;
  private final long maxBytes;
  private final int maxBackups;
  private final int maxAgeDays;
  private final boolean compress;
  private final Clock clock;
  private OutputStream out;
  private long size;

  private AuditLogSink(Builder b) {
    this.file = b.file;
    this.maxBytes = b.maxSizeMegabytes * MEGABYTE;
    this.maxBackups = b.maxBackups;
    this.maxAgeDays = b.maxAgeDays;
    this.compress = b.compress;
    this.clock = b.clock;
  }

  /**
   * A log at {@code path} ({@code -} for standard output) with kube's defaults: 100 MB,
   * 100 backups, 366 days, no compression.
   */
  public static Builder builder(String path) {
    requireNonNull(path, "path");
    if (path.isEmpty()) {
      throw new IllegalArgumentException("audit log path must not be empty");
    }
    return new Builder(path.equals("-") ? null : Path.of(path));
  }

  public static Builder builder(Path path) {
    return new Builder(requireNonNull(path, "path"));
  }

  /**
   * Appends the event's line.
   *
   * @throws UncheckedIOException when it cannot be written (or is larger than the maximum size)
   */
  @Override
  public synchronized void process(AuditEvent event) {
    byte[] line = event.toJsonLine().getBytes(StandardCharsets.UTF_8);
    try {
      if (file == null) {
        System.out.write(line);
        System.out.flush();
        return;
      }
      write(line);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the audit log " + file, e);
    }
  }

  private void write(byte[] line) throws IOException {
    if (maxBytes > 0 && line.length > maxBytes) {
      throw new IOException("write length " + line.length + " exceeds maximum file size "
          + maxBytes);
    }
    if (out == null) {
      openExistingOrNew(line.length);
    } else if (maxBytes > 0 && size + line.length > maxBytes) {
      rotate();
    }
    out.write(line);
    out.flush();
    size += line.length;
  }

  private void openExistingOrNew(int writeLength) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    if (!Files.exists(file)) {
      createNew();
      return;
    }
    long existing = Files.size(file);
    if (maxBytes > 0 && existing + writeLength >= maxBytes) {
      rotate();
      return;
    }
    out = Files.newOutputStream(file, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    size = existing;
  }

  private void createNew() throws IOException {
    try {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      Files.createFile(file);
    }
    out = Files.newOutputStream(file, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    size = 0;
  }

  private void rotate() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
    if (Files.exists(file)) {
      Files.move(file, backupName(clock.instant()));
    }
    createNew();
    removeAndCompressBackups();
  }

  private Path backupName(Instant t) {
    String name = file.getFileName().toString();
    String ext = extension(name);
    String prefix = name.substring(0, name.length() - ext.length());
    return file.resolveSibling(prefix + "-"
        + BACKUP_TIME.format(LocalDateTime.ofInstant(t, ZoneOffset.UTC)) + ext);
  }

  /** Go's {@code filepath.Ext}: from the last dot of the name, or empty. */
  private static String extension(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(dot);
  }

  private record Backup(Path path, Instant time, boolean compressed) {}

  private void removeAndCompressBackups() throws IOException {
    List<Backup> backups = backups();
    backups.sort(Comparator.comparing(Backup::time).reversed());
    List<Backup> remove = new ArrayList<>();
    if (maxBackups > 0 && backups.size() > maxBackups) {
      remove.addAll(backups.subList(maxBackups, backups.size()));
      backups = new ArrayList<>(backups.subList(0, maxBackups));
    }
    if (maxAgeDays > 0) {
      Instant cutoff = clock.instant().minus(Duration.ofDays(maxAgeDays));
      List<Backup> kept = new ArrayList<>();
      for (Backup b : backups) {
        (b.time().isBefore(cutoff) ? remove : kept).add(b);
      }
      backups = kept;
    }
    for (Backup b : remove) {
      Files.deleteIfExists(b.path());
    }
    if (compress) {
      for (Backup b : backups) {
        if (!b.compressed()) {
          gzip(b.path());
        }
      }
    }
  }

  private List<Backup> backups() throws IOException {
    String name = file.getFileName().toString();
    String ext = extension(name);
    String prefix = name.substring(0, name.length() - ext.length()) + "-";
    List<Backup> out = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(file.toAbsolutePath().getParent())) {
      for (Path p : dir) {
        String n = p.getFileName().toString();
        if (!n.startsWith(prefix) || !Files.isRegularFile(p)) {
          continue;
        }
        boolean gz = n.endsWith(ext + ".gz");
        if (!gz && !n.endsWith(ext)) {
          continue;
        }
        String ts = n.substring(prefix.length(), n.length() - ext.length()
            - (gz ? ".gz".length() : 0));
        try {
          out.add(new Backup(p, LocalDateTime.parse(ts, BACKUP_TIME).toInstant(ZoneOffset.UTC),
              gz));
        } catch (DateTimeParseException e) {
          // not one of ours: lumberjack leaves such files alone too
        }
      }
    }
    return out;
  }

  private static void gzip(Path p) throws IOException {
    Path gz = p.resolveSibling(p.getFileName() + ".gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
      Files.copy(p, o);
    }
    Files.delete(p);
  }

  @Override
  public synchronized void close() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
  }

  @Override
  public String toString() {
    return "AuditLogSink{" + (file == null ? "-" : file.toString()) + "}";
  }

  /** Mutable builder of {@link AuditLogSink}; not thread-safe. */
  public static final class Builder {
    private final Path file;
    private long maxSizeMegabytes = 100;
    private int maxBackups = 100;
    private int maxAgeDays = 366;
    private boolean compress;
    private Clock clock = Clock.systemUTC();

    private Builder(Path file) {
      this.file = file;
    }

    /** {@code --audit-log-maxsize}: megabytes before rotation; 0 never rotates. */
    public Builder maxSizeMegabytes(long megabytes) {
      if (megabytes < 0) {
        throw new IllegalArgumentException("--audit-log-maxsize " + megabytes
            + " can't be a negative number");
      }
      this.maxSizeMegabytes = megabytes;
      return this;
    }

    /** {@code --audit-log-maxbackup}: old files kept; 0 keeps all. */
    public Builder maxBackups(int backups) {
      if (backups < 0) {
        throw new IllegalArgumentException("--audit-log-maxbackup " + backups
            + " can't be a negative number");
      }
      this.maxBackups = backups;
      return this;
    }

    /** {@code --audit-log-maxage}: days old files are kept, by their name; 0 keeps all. */
    public Builder maxAgeDays(int days) {
      if (days < 0) {
        throw new IllegalArgumentException("--audit-log-maxage " + days
            + " can't be a negative number");
      }
      this.maxAgeDays = days;
      return this;
    }

    /** {@code --audit-log-compress}: gzip rotated files. */
    public Builder compress(boolean gzip) {
      this.compress = gzip;
      return this;
    }

    /** The clock of backup names and ages. */
    public Builder clock(Clock c) {
      this.clock = requireNonNull(c, "clock");
      return this;
    }

    public AuditLogSink build() {
      return new AuditLogSink(this);
    }
  }
}
