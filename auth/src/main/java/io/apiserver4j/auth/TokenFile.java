/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.authz.Authenticator;
import io.apiserver4j.authz.Authenticators;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's {@code --token-auth-file}: a CSV file of {@code token,user,uid} with an
 * optional fourth column of groups ({@code "group1,group2"}); bearer tokens are looked up in it.
 */
public final class TokenFile {
  private TokenFile() {}

  /**
   * Reads {@code file}.
   *
   * @throws IllegalArgumentException naming the line of a record with fewer than 3 columns, an
   *     empty token or a token given twice, as kube refuses to start on them
   */
  public static Authenticator read(Path file) throws IOException {
    return Authenticators.bearerTokens(parse(Files.readString(file, StandardCharsets.UTF_8),
        file.toString()));
  }

  static Map<String, UserInfo> parse(String csv, String name) {
    Map<String, UserInfo> tokens = new LinkedHashMap<>();
    String[] lines = csv.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.isBlank()) {
        continue;
      }
      List<String> record = record(line);
      int n = i + 1;
      if (record.size() < 3) {
        throw new IllegalArgumentException("token file '" + name + "' must have at least 3"
            + " columns (token, user name, user uid), found " + record.size() + " on line " + n);
      }
      String token = record.get(0);
      if (token.isEmpty()) {
        throw new IllegalArgumentException("token file '" + name + "': token on line " + n
            + " is empty");
      }
      if (tokens.containsKey(token)) {
        throw new IllegalArgumentException("token file '" + name + "': duplicate token on line "
            + n);
      }
      List<String> groups = new ArrayList<>();
      if (record.size() >= 4 && !record.get(3).isEmpty()) {
        for (String g : record.get(3).split(",")) {
          groups.add(g.trim());
        }
      }
      tokens.put(token, new UserInfo(record.get(1), record.get(2), groups, Map.of()));
    }
    return tokens;
  }

  /** One CSV record (RFC 4180 quoting, as Go's encoding/csv). */
  private static List<String> record(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        out.add(field.toString());
        field.setLength(0);
      } else {
        field.append(c);
      }
    }
    out.add(field.toString());
    return out;
  }
}
