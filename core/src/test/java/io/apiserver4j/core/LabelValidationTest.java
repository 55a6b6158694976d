/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LabelValidationTest {
  private static final String NAME_REGEX = "must consist of alphanumeric characters, '-', '_' or"
      + " '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or"
      + " 'my.name',  or '123-abc', regex used for validation is"
      + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

  static Stream<Arguments> keys() {
    return Stream.of(
        Arguments.of("app", List.of()),
        Arguments.of("example.com/app.v1", List.of()),
        Arguments.of("/x", List.of("prefix part must be non-empty")),
        Arguments.of("x/", List.of("name part must be non-empty", "name part " + NAME_REGEX)),
        Arguments.of("-x", List.of("name part " + NAME_REGEX)),
        Arguments.of("a".repeat(64), List.of("name part must be no more than 63 bytes")),
        Arguments.of("Example.com/x", List.of("prefix part a lowercase RFC 1123 subdomain must"
            + " consist of lower case alphanumeric characters, '-' or '.', and must start and end"
            + " with an alphanumeric character (e.g. 'example.com', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
        Arguments.of("a/b/c", List.of("a valid label key " + NAME_REGEX
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keys")
  void validatesKeysLikeIsQualifiedName(String key, List<String> expected) {
    assertThat(LabelValidation.qualifiedName(key)).containsExactlyElementsOf(expected);
  }

  @Test
  void validatesValuesLikeIsValidLabelValue() {
    assertThat(LabelValidation.labelValue("")).isEmpty();
    assertThat(LabelValidation.labelValue("my_value.1")).isEmpty();
    // 32 two-byte characters are 64 bytes: Go counts bytes, not characters.
    assertThat(LabelValidation.labelValue("é".repeat(32))).hasSize(2)
        .first().isEqualTo("must be no more than 63 bytes");
    assertThat(LabelValidation.labelValue("-a")).containsExactly("a valid label must be an empty"
        + " string or consist of alphanumeric characters, '-', '_' or '.', and must start and end"
        + " with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex"
        + " used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
  }

  @Test
  void regexErrorWithoutExamples() {
    assertThat(LabelValidation.regexError("bad", "[a-z]+"))
        .isEqualTo("bad (regex used for validation is '[a-z]+')");
  }

  /**
   * The character loops accept exactly what apimachinery's expressions accept: every string of
   * up to four characters over an alphabet of each character class the expressions tell apart,
   * and a few longer ones.
   */
  @Test
  void predicatesMatchApimachinerysExpressions() {
    Pattern label = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    Pattern subdomain = Pattern.compile(
        "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    Pattern keyName = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    String alphabet = "a9Z-._/ \u00e9";
    List<String> strings = new ArrayList<>(List.of("", "my-name.example.com", "a..b", "a.-b",
        "kubernetes.io", "app.kubernetes.io", "x".repeat(70)));
    int n = alphabet.length();
    for (int len = 1; len <= 4; len++) {
      for (int total = (int) Math.pow(n, len), k = 0; k < total; k++) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0, x = k; i < len; i++, x /= n) {
          sb.append(alphabet.charAt(x % n));
        }
        strings.add(sb.toString());
      }
    }
    for (String s : strings) {
      assertThat(LabelValidation.isDns1123Label(s)).as(s).isEqualTo(label.matcher(s).matches());
      assertThat(LabelValidation.isDns1123Subdomain(s)).as(s)
          .isEqualTo(subdomain.matcher(s).matches());
      assertThat(LabelValidation.isLabelKeyName(s)).as(s).isEqualTo(keyName.matcher(s).matches());
      assertThat(LabelValidation.utf8Length(s)).as(s)
          .isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
    for (String s : List.of("\ud83d\ude00", "\ud83d", "a\ude00b", "\u07ff\u0800")) {
      assertThat(LabelValidation.utf8Length(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
  }
}
