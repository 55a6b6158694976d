/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Generates the protobuf descriptor resource ({@value #RESOURCE}) from the {@code generated.proto}
 * files of {@code ../shared/api/proto} and the Go field hints of {@code src/proto} (what the proto
 * files do not say: Go pointers, inlined structs, JSON names and omitempty; see
 * {@code kube-api/scripts/go-field-hints.py}).
 *
 * <p>The output is JSON, one message per line, messages sorted by full name and fields in
 * declaration order (the Go struct order, which is the JSON order). Every type reference is
 * resolved to a full name without the leading dot. Run from the {@code kube-api} directory:
 *
 * <pre>
 * java -cp ... io.apiserver4j.kubeapi.internal.proto.ProtoDescriptorGenerator \
 *     ../../shared/api/proto src/proto/go-field-hints.txt \
 *     src/main/resources/io/apiserver4j/kubeapi/proto-descriptors.json
 * </pre>
 */
public final class ProtoDescriptorGenerator {
  /** Where the runtime finds the output on the class path. */
  public static final String RESOURCE = "/io/apiserver4j/kubeapi/proto-descriptors.json";

  private static final Set<String> SCALARS = Set.of("double", "float", "int32", "int64",
      "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64",
      "bool", "string", "bytes");

  private ProtoDescriptorGenerator() {}

  /** Which hints the proto files must have a field for. */
  public enum Hints {
    /** Every hint names a field of the proto files (the release the hints were written for). */
    ALL_USED,
    /**
     * Hints of fields the proto files lack are left out: an older release's files, read with
     * the hints of the newest release's Go types, which only add fields.
     */
    WHERE_FIELDS_EXIST
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: ProtoDescriptorGenerator PROTO_DIR HINTS OUT");
    }
    Files.write(Path.of(args[2]), generate(Path.of(args[0]), Path.of(args[1])));
  }

  /** The descriptor resource for the proto files under {@code protoDir}. */
  public static byte[] generate(Path protoDir, Path hintsFile) {
    return generate(protoDir, hintsFile, Hints.ALL_USED);
  }

  /**
   * The descriptor resource for the proto files under {@code protoDir}, with the hints
   * {@code hints} says must apply.
   */
  public static byte[] generate(Path protoDir, Path hintsFile, Hints hints) {
    List<ProtoParser.ProtoFile> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(protoDir)) {
      for (Path p : walk.filter(p -> p.getFileName().toString().endsWith(".proto")).sorted()
          .toList()) {
        files.add(ProtoParser.parse(Files.readString(p, StandardCharsets.UTF_8),
            protoDir.relativize(p).toString().replace('\\', '/')));
      }
      return render(files, readHints(hintsFile), hints);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String[]> readHints(Path file) throws IOException {
    Map<String, String[]> hints = new HashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.trim().split(" ");
      if (parts.length < 3) {
        throw new IllegalArgumentException("malformed hint: " + line);
      }
      hints.put(parts[0] + " " + parts[1], parts);
    }
    return hints;
  }

  private static byte[] render(List<ProtoParser.ProtoFile> files, Map<String, String[]> hints,
      Hints coverage) {
    Map<String, ProtoParser.Message> all = new TreeMap<>();
    for (ProtoParser.ProtoFile f : files) {
      for (ProtoParser.Message m : f.messages()) {
        if (all.put(m.fullName(), m) != null) {
          throw new IllegalArgumentException("message " + m.fullName() + " defined twice");
        }
      }
    }
    Map<String, String[]> unused = new LinkedHashMap<>(hints);
    StringBuilder out = new StringBuilder("{\"messages\":[\n");
    boolean first = true;
    for (ProtoParser.Message m : all.values()) {
      MapValue.Builder mb = MapValue.builder().put("name", Value.of(m.fullName()));
      // the markers that change the JSON form: a nullable list, a string, a timestamp
      List<Value> markers = m.markers().stream()
          .filter(s -> s.startsWith("+protobuf.nullable=") || s.startsWith("+protobuf.embed=")
              || s.startsWith("+protobuf.as="))
          .map(s -> (Value) Value.of(s.substring(1))).toList();
      if (!markers.isEmpty()) {
        mb.put("markers", ListValue.of(markers));
      }
      List<Value> fields = new ArrayList<>();
      for (ProtoParser.Field f : m.fields()) {
        MapValue.Builder fb = MapValue.builder()
            .put("n", Value.of((long) f.number()))
            .put("name", Value.of(f.name()))
            .put("t", Value.of(resolve(f.type(), m.fullName(), all)));
        if (f.map()) {
          fb.put("key", Value.of(f.mapKey()));
        } else if (f.repeated()) {
          fb.put("rep", Value.of(true));
        }
        String[] hint = unused.remove(m.fullName() + " " + f.name());
        if (hint != null) {
          for (String flag : hint[2].split(",")) {
            if (!flag.equals("-")) {
              fb.put(flag, Value.of(true));
            }
          }
          for (int i = 3; i < hint.length; i++) {
            if (hint[i].startsWith("json=")) {
              fb.put("json", Value.of(hint[i].substring(5)));
            }
          }
        }
        fields.add(fb.build());
      }
      mb.put("fields", ListValue.of(fields));
      out.append(first ? "" : ",\n").append(Json.write(mb.build()));
      first = false;
    }
    out.append("\n]}\n");
    if (!unused.isEmpty() && coverage == Hints.ALL_USED) {
      throw new IllegalArgumentException("hints for fields the proto files do not have: "
          + unused.keySet());
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** proto2 name resolution: innermost scope first, then each enclosing scope. */
  private static String resolve(String type, String scope,
      Map<String, ProtoParser.Message> all) {
    if (SCALARS.contains(type)) {
      return type;
    }
    if (type.startsWith(".")) {
      String full = type.substring(1);
      if (!all.containsKey(full)) {
        throw new IllegalArgumentException("unknown type " + type + " in " + scope);
      }
      return full;
    }
    String s = scope;
    while (true) {
      String candidate = s.isEmpty() ? type : s + "." + type;
      if (all.containsKey(candidate)) {
        return candidate;
      }
      if (s.isEmpty()) {
        throw new IllegalArgumentException("unknown type " + type + " in " + scope);
      }
      int dot = s.lastIndexOf('.');
      s = dot < 0 ? "" : s.substring(0, dot);
    }
  }
}
