/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import io.apiserver4j.core.GoStrings;
import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decoding, validation and encoding of {@code metadata.managedFields}, as kube-apiserver's
 * managed-fields decoder ({@code DecodeManagedFields}), its encoder
 * ({@code encodeManagedFields}, which sorts) and ObjectMeta validation define them. Thread-safe.
 */
public final class ManagedFields {
  /** The only {@code fieldsType} there is. */
  public static final String FIELDS_V1 = "FieldsV1";
  /** Longest manager name ObjectMeta validation accepts, in UTF-8 bytes. */
  public static final int MAX_MANAGER_BYTES = 128;
  /** Longest subresource name ObjectMeta validation accepts, in UTF-8 bytes. */
  public static final int MAX_SUBRESOURCE_BYTES = 256;

  /**
   * The order of entries in an encoded list: operation ({@code Apply} before {@code Update}),
   * then time in whole seconds (no time counts as 0), then manager, apiVersion and subresource
   * (Go byte order).
   */
  public static final Comparator<ManagedFieldsEntry> ENCODING_ORDER = (p, q) -> {
    int c = p.operation().wireName().compareTo(q.operation().wireName());
    if (c != 0) {
      return c;
    }
    c = Long.compare(seconds(p), seconds(q));
    if (c != 0) {
      return c;
    }
    c = Values.compareStrings(p.manager(), q.manager());
    if (c != 0) {
      return c;
    }
    c = Values.compareStrings(p.apiVersion(), q.apiVersion());
    return c != 0 ? c : Values.compareStrings(p.subresource(), q.subresource());
  };

  private static final Pattern RFC3339 = Pattern.compile(
      "(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?"
          + "(Z|([+-])(\\d{2}):(\\d{2}))");
  private static final DateTimeFormatter SECONDS_UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private ManagedFields() {}

  private static long seconds(ManagedFieldsEntry e) {
    return e.time().map(Instant::getEpochSecond).orElse(0L);
  }

  /**
   * Decodes a {@code metadata.managedFields} value: a list of entry maps, or null/absent for
   * none. Checks, per entry in this order: {@code operation} is exactly {@code Apply} or
   * {@code Update} ({@code operation must be `Apply` or `Update`}); {@code apiVersion} is not
   * empty ({@code apiVersion must not be empty}); {@code fieldsType} is present
   * ({@code missing fieldsType in managed fields entry <i>}) and is {@code FieldsV1}
   * ({@code invalid fieldsType "<x>" in managed fields entry <i>}); {@code fieldsV1} decodes (a
   * missing or null {@code fieldsV1} is the empty set). An empty manager is accepted. Unknown
   * keys are ignored, as JSON decoding into the Go struct ignores them.
   *
   * <p>Entries with the same {@link ManagedFieldsEntry#identity()} collapse into one: the later
   * entry's fields and time win (it keeps the earlier one's position).
   *
   * @throws ManagedFieldsException for the errors above, and when the value has the wrong shape
   *     (not a list, an entry that is not a map, a field of the wrong type, a malformed time)
   * @param managedFields the raw value of {@code metadata.managedFields}
   * @return the entries, in the order given, duplicates collapsed
   */
  public static List<ManagedFieldsEntry> decode(Value managedFields) {
    requireNonNull(managedFields, "managedFields");
    if (managedFields.isNull()) {
      return List.of();
    }
    if (!(managedFields instanceof ListValue list)) {
      throw new ManagedFieldsException("managedFields must be a list, found "
          + kindName(managedFields));
    }
    Map<String, ManagedFieldsEntry> byIdentity = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      ManagedFieldsEntry e = decodeEntry(list.get(i), i);
      byIdentity.put(e.identity(), e);
    }
    return List.copyOf(byIdentity.values());
  }

  private static ManagedFieldsEntry decodeEntry(Value v, int i) {
    MapValue m;
    if (v instanceof MapValue mv) {
      m = mv;
    } else if (v.isNull()) {
      m = MapValue.empty();
    } else {
      throw new ManagedFieldsException("managed fields entry " + i + " must be an object, found "
          + kindName(v));
    }
    String manager = string(m, "manager", i);
    String operationName = string(m, "operation", i);
    String apiVersion = string(m, "apiVersion", i);
    String fieldsType = string(m, "fieldsType", i);
    String subresource = string(m, "subresource", i);
    Optional<Instant> time = Optional.empty();
    Value t = m.getOrNull("time");
    if (t != null && !t.isNull()) {
      if (!(t instanceof StringValue ts)) {
        throw new ManagedFieldsException("time of managed fields entry " + i
            + " must be a string, found " + kindName(t));
      }
      time = Optional.of(parseTime(ts.value(), i));
    }
    ManagedFieldsOperation operation = ManagedFieldsOperation.fromWireName(operationName)
        .orElseThrow(() -> new ManagedFieldsException("operation must be `Apply` or `Update`"));
    if (apiVersion.isEmpty()) {
      throw new ManagedFieldsException("apiVersion must not be empty");
    }
    if (fieldsType.isEmpty()) {
      throw new ManagedFieldsException("missing fieldsType in managed fields entry " + i);
    }
    if (!fieldsType.equals(FIELDS_V1)) {
      throw new ManagedFieldsException("invalid fieldsType " + GoJson.quoteForMessage(fieldsType)
          + " in managed fields entry " + i);
    }
    Value f = m.getOrNull("fieldsV1");
    FieldSet fields;
    try {
      fields = f == null ? FieldSet.empty() : FieldsV1.decode(f);
    } catch (FieldsV1Exception e) {
      throw new ManagedFieldsException("error decoding versioned set from managed fields entry "
          + i + " (manager " + GoJson.quoteForMessage(manager) + "): error decoding set: "
          + e.getMessage(), e);
    }
    return new ManagedFieldsEntry(manager, operation, apiVersion, time, fields, subresource);
  }

  private static String string(MapValue m, String key, int i) {
    Value v = m.getOrNull(key);
    if (v == null || v.isNull()) {
      return "";
    }
    if (v instanceof StringValue s) {
      return s.value();
    }
    throw new ManagedFieldsException(key + " of managed fields entry " + i
        + " must be a string, found " + kindName(v));
  }

  private static String kindName(Value v) {
    return v.kind().name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a time as Go's {@code time.Parse(time.RFC3339, s)} does: {@code T} separator,
   * optional fractional seconds, {@code Z} or a {@code ±hh:mm} offset.
   */
  static Instant parseTime(String s, int entry) {
    Matcher m = RFC3339.matcher(s);
    if (!m.matches()) {
      throw new ManagedFieldsException("invalid time " + GoJson.quoteForMessage(s)
          + " in managed fields entry " + entry + ": not RFC 3339 (2006-01-02T15:04:05Z07:00)");
    }
    try {
      int nanos = 0;
      if (m.group(7) != null) {
        String frac = (m.group(7) + "00000000").substring(0, 9);
        nanos = Integer.parseInt(frac);
      }
      LocalDateTime local = LocalDateTime.of(Integer.parseInt(m.group(1)),
          Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
          Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
          Integer.parseInt(m.group(6)), nanos);
      ZoneOffset offset = ZoneOffset.UTC;
      if (m.group(9) != null) {
        int hours = Integer.parseInt(m.group(10));
        int minutes = Integer.parseInt(m.group(11));
        if (hours > 23 || minutes > 59) {
          throw new DateTimeException("time zone offset out of range");
        }
        int total = hours * 3600 + minutes * 60;
        offset = ZoneOffset.ofTotalSeconds(m.group(9).equals("-") ? -total : total);
      }
      return local.toInstant(offset);
    } catch (DateTimeException e) {
      throw new ManagedFieldsException("invalid time " + GoJson.quoteForMessage(s)
          + " in managed fields entry " + entry + ": " + e.getMessage(), e);
    }
  }

  /**
   * {@code time} as kube writes it: RFC 3339 in UTC with whole seconds.
   *
   * @param time the instant; fractions of a second are dropped
   * @return e.g. {@code 2024-01-02T03:04:05Z}
   */
  public static String formatTime(Instant time) {
    requireNonNull(time, "time");
    long seconds = time.getEpochSecond();
    LocalDate day = LocalDate.ofEpochDay(Math.floorDiv(seconds, 86_400L));
    int year = day.getYear();
    if (year < 0 || year > 9999) {
      // the formatter's sign and width rules for years outside four digits
      return SECONDS_UTC.format(Instant.ofEpochSecond(seconds));
    }
    // every managed-fields entry of every write carries a time: digits written directly are a
    // fraction of a formatter's cost, most of all before the JIT has compiled the formatter
    int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
    char[] out = new char[20];
    digits(out, 0, year, 4);
    out[4] = '-';
    digits(out, 5, day.getMonthValue(), 2);
    out[7] = '-';
    digits(out, 8, day.getDayOfMonth(), 2);
    out[10] = 'T';
    digits(out, 11, secondOfDay / 3600, 2);
    out[13] = ':';
    digits(out, 14, secondOfDay / 60 % 60, 2);
    out[16] = ':';
    digits(out, 17, secondOfDay % 60, 2);
    out[19] = 'Z';
    return new String(out);
  }

  private static void digits(char[] out, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      out[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  /**
   * The entries in {@link #ENCODING_ORDER}.
   *
   * @param entries the entries; not changed
   * @return a sorted copy
   */
  public static List<ManagedFieldsEntry> sorted(List<ManagedFieldsEntry> entries) {
    requireNonNull(entries, "entries");
    List<ManagedFieldsEntry> copy = new ArrayList<>(entries);
    copy.sort(ENCODING_ORDER);
    return List.copyOf(copy);
  }

  /**
   * The wire form of {@code entries}: sorted in {@link #ENCODING_ORDER}, each entry as
   * {@link ManagedFieldsEntry#toValue()}. An empty list encodes as the empty list; kube omits the
   * field entirely then, which {@link #withManagedFields} does.
   *
   * @param entries the entries, in any order
   * @return the encoded list
   */
  public static ListValue encode(List<ManagedFieldsEntry> entries) {
    requireNonNull(entries, "entries");
    List<ManagedFieldsEntry> ordered = sorted(entries);
    ListValue.Builder b = ListValue.builder(ordered.size());
    for (ManagedFieldsEntry e : ordered) {
      b.add(e.toValue());
    }
    return b.build();
  }

  /**
   * {@code object} with {@code metadata.managedFields} set to the encoding of {@code entries}, or
   * removed when there are none (kube never writes an empty list). A missing {@code metadata}
   * map is created only when there is something to write.
   *
   * @param object the object; not changed
   * @param entries the entries to record, in any order
   * @return a copy of {@code object} with the field set or removed
   */
  public static MapValue withManagedFields(MapValue object, List<ManagedFieldsEntry> entries) {
    requireNonNull(object, "object");
    requireNonNull(entries, "entries");
    Value meta = object.getOrNull("metadata");
    MapValue metadata = meta instanceof MapValue mm ? mm : MapValue.empty();
    if (entries.isEmpty()) {
      if (!(meta instanceof MapValue) || !metadata.containsKey("managedFields")) {
        return object;
      }
      return object.with("metadata", metadata.without("managedFields"));
    }
    return object.with("metadata", metadata.with("managedFields", encode(entries)));
  }

  /**
   * ObjectMeta validation of a raw {@code managedFields} value, with kube-apiserver's field errors
   * under {@code fieldPath} (normally {@code metadata.managedFields}): per entry an empty
   * operation (Required), an operation other than {@code Apply}/{@code Update} (Unsupported
   * value), a non-empty fieldsType other than {@code FieldsV1} (Invalid value), a manager longer
   * than 128 bytes (Too long), a non-printable character in the manager (Invalid value, one error
   * per character, with its byte position) and a subresource longer than 256 bytes (Too long).
   * Values of the wrong JSON type are reported as invalid too.
   *
   * @param managedFields the raw value, possibly null or of any type
   * @param fieldPath the path the errors are reported under
   * @return the field errors, in kube-apiserver's order; empty when valid
   */
  public static List<FieldError> validate(Value managedFields, String fieldPath) {
    requireNonNull(managedFields, "managedFields");
    requireNonNull(fieldPath, "fieldPath");
    List<FieldError> errors = new ArrayList<>();
    if (managedFields.isNull()) {
      return errors;
    }
    if (!(managedFields instanceof ListValue list)) {
      errors.add(FieldError.invalid(fieldPath, managedFields, "must be a list"));
      return errors;
    }
    for (int i = 0; i < list.size(); i++) {
      String at = fieldPath + "[" + i + "]";
      Value v = list.get(i);
      MapValue m = v instanceof MapValue mv ? mv : MapValue.empty();
      if (!(v instanceof MapValue) && !v.isNull()) {
        errors.add(FieldError.invalid(at, v, "must be an object"));
        continue;
      }
      Value op = m.getOrNull("operation");
      String opName = op instanceof StringValue s ? s.value() : "";
      if (op != null && !op.isNull() && !(op instanceof StringValue)) {
        errors.add(FieldError.invalid(at + ".operation", op, "must be a string"));
      } else if (opName.isEmpty()) {
        errors.add(FieldError.required(at + ".operation", "must not be empty"));
      } else if (ManagedFieldsOperation.fromWireName(opName).isEmpty()) {
        errors.add(FieldError.notSupported(at + ".operation", op, List.of("Apply", "Update")));
      }
      Value ft = m.getOrNull("fieldsType");
      if (ft instanceof StringValue s && !s.value().isEmpty() && !s.value().equals(FIELDS_V1)) {
        errors.add(FieldError.invalid(at + ".fieldsType", ft, "must be `FieldsV1`"));
      } else if (ft != null && !ft.isNull() && !(ft instanceof StringValue)) {
        errors.add(FieldError.invalid(at + ".fieldsType", ft, "must be a string"));
      }
      Value mg = m.getOrNull("manager");
      if (mg instanceof StringValue s) {
        errors.addAll(validateManager(s.value(), at + ".manager"));
      } else if (mg != null && !mg.isNull()) {
        errors.add(FieldError.invalid(at + ".manager", mg, "must be a string"));
      }
      Value sr = m.getOrNull("subresource");
      if (sr instanceof StringValue s) {
        if (s.value().getBytes(StandardCharsets.UTF_8).length > MAX_SUBRESOURCE_BYTES) {
          errors.add(FieldError.tooLong(at + ".subresource", MAX_SUBRESOURCE_BYTES));
        }
      } else if (sr != null && !sr.isNull()) {
        errors.add(FieldError.invalid(at + ".subresource", sr, "must be a string"));
      }
    }
    return errors;
  }

  /**
   * kube-apiserver's field-manager name check ({@code ValidateFieldManager}): at most 128 bytes,
   * and every character printable; the errors are reported at {@code fieldPath}.
   *
   * @param manager the field manager name
   * @param fieldPath the path the errors are reported at
   * @return Too long and Invalid value errors; empty when valid
   */
  public static List<FieldError> validateManager(String manager, String fieldPath) {
    requireNonNull(manager, "manager");
    requireNonNull(fieldPath, "fieldPath");
    List<FieldError> errors = new ArrayList<>();
    byte[] utf8 = manager.getBytes(StandardCharsets.UTF_8);
    if (utf8.length > MAX_MANAGER_BYTES) {
      errors.add(FieldError.tooLong(fieldPath, MAX_MANAGER_BYTES));
    }
    int bytePos = 0;
    for (int i = 0; i < manager.length(); ) {
      int cp = manager.codePointAt(i);
      int len = Character.charCount(cp);
      boolean lone = len == 1 && Character.isSurrogate((char) cp);
      // An unpaired surrogate is invalid UTF-8 for Go, which reads it as U+FFFD (printable).
      if (!lone && !GoStrings.isPrint(cp)) {
        errors.add(FieldError.invalid(fieldPath, Value.of(manager),
            "invalid character " + formatRune(cp) + " (at position " + bytePos + ")"));
      }
      bytePos += lone ? 3 : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      i += len;
    }
    return errors;
  }

  // Go's %#U: U+XXXX (at least four hex digits), followed by the quoted character if printable.
  private static String formatRune(int cp) {
    String hex = Integer.toHexString(cp).toUpperCase(Locale.ROOT);
    return "U+" + "0".repeat(Math.max(0, 4 - hex.length())) + hex;
  }
}
