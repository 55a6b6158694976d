/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A parser for the subset of proto2 that Kubernetes' {@code generated.proto} files use:
 * {@code syntax}, {@code package}, {@code import}, {@code option}, messages (nested too) with
 * {@code optional}/{@code required}/{@code repeated} fields, {@code map<K, V>} fields, field
 * options in brackets (ignored), and enums (their values ignored). Comments are kept only where
 * they carry generator markers: the {@code +protobuf...} lines of the comment before a message.
 *
 * <p>Not thread-safe; one instance parses one file.
 */
public final class ProtoParser {

  /** A parsed file. */
  public record ProtoFile(String packageName, List<String> imports, List<Message> messages) {}

  /**
   * A message: its full name (package and enclosing messages, dot-separated, no leading dot),
   * the generator markers of its comment ({@code +protobuf.nullable=true}, ...) and its fields
   * in declaration order.
   */
  public record Message(String fullName, List<String> markers, List<Field> fields) {}

  /**
   * A field. {@code type} is a scalar type name or a message type as written (resolved later);
   * {@code mapKey} is the key type of a map field (then {@code type} is the value type) and
   * empty otherwise.
   */
  public record Field(String name, int number, String label, String type, String mapKey) {
    public boolean repeated() {
      return label.equals("repeated");
    }

    public boolean map() {
      return !mapKey.isEmpty();
    }
  }

  private final String text;
  private final String source;
  private int pos;
  private final List<String> pendingMarkers = new ArrayList<>();

  private ProtoParser(String text, String source) {
    this.text = text;
    this.source = source;
  }

  /** Parses one file; {@code source} names it in error messages. */
  public static ProtoFile parse(String text, String source) {
    return new ProtoParser(Objects.requireNonNull(text, "text"), source).file();
  }

  private ProtoFile file() {
    String pkg = "";
    List<String> imports = new ArrayList<>();
    List<Message> messages = new ArrayList<>();
    while (true) {
      String t = token();
      if (t == null) {
        break;
      }
      switch (t) {
        case "syntax":
          expect("=");
          String syntax = stringLiteral();
          if (!syntax.equals("proto2")) {
            throw error("unsupported syntax " + syntax);
          }
          expect(";");
          break;
        case "package":
          pkg = token();
          expect(";");
          break;
        case "import":
          imports.add(stringLiteral());
          expect(";");
          break;
        case "option":
          skipStatement();
          break;
        case "message":
          message(pkg, messages);
          break;
        case "enum":
          skipBlock();
          break;
        default:
          throw error("unexpected '" + t + "'");
      }
    }
    return new ProtoFile(pkg, List.copyOf(imports), List.copyOf(messages));
  }

  private void message(String scope, List<Message> out) {
    List<String> markers = List.copyOf(pendingMarkers);
    String name = token();
    String fullName = scope.isEmpty() ? name : scope + "." + name;
    expect("{");
    List<Field> fields = new ArrayList<>();
    int index = out.size();
    while (true) {
      String t = token();
      if (t == null) {
        throw error("unterminated message " + fullName);
      }
      if (t.equals("}")) {
        break;
      }
      switch (t) {
        case "message":
          message(fullName, out);
          break;
        case "enum":
          skipBlock();
          break;
        case "option":
        case "reserved":
        case "extensions":
          skipStatement();
          break;
        case "optional":
        case "required":
        case "repeated":
          fields.add(field(t, token(), ""));
          break;
        case "map":
          expect("<");
          String key = token();
          expect(",");
          String value = token();
          expect(">");
          fields.add(field("repeated", value, key));
          break;
        default:
          throw error("unexpected '" + t + "' in message " + fullName);
      }
    }
    out.add(index, new Message(fullName, markers, List.copyOf(fields)));
  }

  private Field field(String label, String type, String mapKey) {
    String name = token();
    expect("=");
    String number = token();
    int n;
    try {
      n = Integer.parseInt(number);
    } catch (NumberFormatException e) {
      throw error("field " + name + " has number '" + number + "'");
    }
    String t = token();
    if ("[".equals(t)) {
      while (!"]".equals(t)) {
        t = token();
        if (t == null) {
          throw error("unterminated field options of " + name);
        }
      }
      t = token();
    }
    if (!";".equals(t)) {
      throw error("expected ';' after field " + name);
    }
    return new Field(name, n, label, type, mapKey);
  }

  private void skipStatement() {
    String t;
    do {
      t = token();
      if (t == null) {
        throw error("unterminated statement");
      }
    } while (!t.equals(";"));
  }

  private void skipBlock() {
    token();
    expect("{");
    int depth = 1;
    while (depth > 0) {
      String t = token();
      if (t == null) {
        throw error("unterminated block");
      }
      if (t.equals("{")) {
        depth++;
      } else if (t.equals("}")) {
        depth--;
      }
    }
  }

  private void expect(String s) {
    String t = token();
    if (!s.equals(t)) {
      throw error("expected '" + s + "', found '" + t + "'");
    }
  }

  private String stringLiteral() {
    String t = token();
    if (t == null || t.length() < 2 || t.charAt(0) != '"') {
      throw error("expected a string literal, found '" + t + "'");
    }
    return t.substring(1, t.length() - 1);
  }

  /**
   * The next token, or null at the end. Comments are skipped; the markers of a run of comments
   * are remembered for the message that follows it and forgotten at any other token.
   */
  private String token() {
    boolean inComments = false;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (Character.isWhitespace(c)) {
        pos++;
      } else if (text.startsWith("//", pos)) {
        int end = text.indexOf('\n', pos);
        end = end < 0 ? text.length() : end;
        if (!inComments) {
          pendingMarkers.clear();
          inComments = true;
        }
        String line = text.substring(pos + 2, end).trim();
        if (line.startsWith("+protobuf")) {
          pendingMarkers.add(line);
        }
        pos = end;
      } else if (text.startsWith("/*", pos)) {
        int end = text.indexOf("*/", pos + 2);
        if (end < 0) {
          throw error("unterminated comment");
        }
        pos = end + 2;
      } else {
        break;
      }
    }
    if (!inComments && pos < text.length() && !text.startsWith("message", pos)) {
      pendingMarkers.clear();
    }
    if (pos >= text.length()) {
      return null;
    }
    int start = pos;
    char c = text.charAt(pos);
    if (c == '"') {
      int end = text.indexOf('"', pos + 1);
      if (end < 0) {
        throw error("unterminated string");
      }
      pos = end + 1;
      return text.substring(start, pos);
    }
    if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-') {
      while (pos < text.length()) {
        char d = text.charAt(pos);
        if (!(Character.isLetterOrDigit(d) || d == '_' || d == '.' || d == '-')) {
          break;
        }
        pos++;
      }
      return text.substring(start, pos);
    }
    pos++;
    return String.valueOf(c);
  }

  private IllegalArgumentException error(String message) {
    int line = 1;
    for (int i = 0; i < Math.min(pos, text.length()); i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return new IllegalArgumentException(source + ":" + line + ": " + message);
  }
}
