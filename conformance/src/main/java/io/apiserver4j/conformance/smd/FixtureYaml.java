/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance.smd;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;

/**
 * Reads the YAML texts of fixture objects as the Go tests did. Go's yaml.v2 {@code Unmarshal}
 * parses the first document and ignores whatever follows it, and a few Go test inputs rely on
 * that (a flow mapping followed by a stray {@code }}). When a text does not parse as one
 * document and is a flow collection, the balanced collection at its start is read instead.
 */
final class FixtureYaml {
  private FixtureYaml() {}

  static Value read(String text) {
    try {
      return Yaml.read(text);
    } catch (DecodeException e) {
      int end = flowCollectionEnd(text);
      if (end < 0 || text.substring(end).isBlank()) {
        throw e;
      }
      return Yaml.read(text.substring(0, end));
    }
  }

  /** The index just after the flow collection the text starts with, or -1. */
  private static int flowCollectionEnd(String s) {
    int i = 0;
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    if (i == s.length() || (s.charAt(i) != '{' && s.charAt(i) != '[')) {
      return -1;
    }
    int depth = 0;
    char quote = 0;
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (quote != 0) {
        if (c == '\\' && quote == '"') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        depth--;
        if (depth == 0) {
          return i + 1;
        }
      }
    }
    return -1;
  }
}
