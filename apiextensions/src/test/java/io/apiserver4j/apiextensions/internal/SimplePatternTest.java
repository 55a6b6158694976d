/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The subset matcher against re2j (RE2's semantics) on fixed and generated patterns. */
class SimplePatternTest {
  private static final List<String> INPUTS = List.of("", "a", "abc", "value-1", "Value_2",
      "v1.2.3", "a\nb", "a b", "é", "a😀b", "😀", "1234", "-", "a.b", "abc$", "^a", "\t",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "x\u0085y",
      "line\r\n", "[]", "a-b-c-", "ab12", "AB", "192.168.0.1");

  private static void agree(String pattern, String input) {
    Optional<SimplePattern> simple = SimplePattern.of(pattern);
    if (simple.isEmpty()) {
      return;
    }
    int r = simple.get().find(input);
    assertThat(r).as("%s on %s", pattern, input)
        .isEqualTo(Pattern.compile(pattern).matcher(input).find() ? 1 : 0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"^[a-z0-9-]+$", "^[a-z0-9]$", "^\\d+$", "^[A-Za-z_][A-Za-z0-9_]*$",
      "^v\\d+\\.\\d+\\.\\d+$", "a.c", "^.{3,5}$", "^[^\\s]+$", "b", "", "^$", "^", "$",
      "^\\w{2,}$", "[\\d.]+", "^[-a]$", "^[a-]+$", "\\$$", "\\\\", "^[\\]a]+$", "^a?b*c+$",
      "^[^a-z]*$", "^.*$", ".", "^\\S+$", "^(a|b)$", "^[[:alpha:]]+$", "(?i)abc",
      "^\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$", "a{0}", "^a{2}$", "^é$", "^[a-z]{1,63}$"})
  void agreesWithRe2(String pattern) {
    for (String input : INPUTS) {
      agree(pattern, input);
    }
  }

  @Test
  void commonSchemaPatternsAreInTheSubset() {
    for (String p : List.of("^[a-z0-9-]+$", "^\\d+$", "^[A-Za-z_][A-Za-z0-9_]*$",
        "^v\\d+\\.\\d+\\.\\d+$", "^.{3,5}$", "^[^\\s]+$", "^[a-z]{1,63}$")) {
      assertThat(SimplePattern.of(p)).as(p).isPresent();
    }
    for (String p : List.of("^(a|b)$", "^[[:alpha:]]+$", "(?i)abc", "^\\S+$", "^é$",
        "a|b", "^a+?$", "^[]a]+$")) {
      assertThat(SimplePattern.of(p)).as(p).isEmpty();
    }
  }

  @Test
  void loneSurrogatesAreLeftToRe2j() {
    assertThat(SimplePattern.of("^.$").orElseThrow().find("\ud800"))
        .isEqualTo(SimplePattern.UNDECIDED);
  }

  @Test
  void agreesWithRe2OnGeneratedPatterns() {
    String[] atoms = {"a", "b", "-", ".", "\\.", "\\d", "\\w", "\\s", "[a-c]", "[^a-c]",
        "[\\d_]", "[-a]", "[a\\-z]", " ", "0", "[^\\n]", "\\n", "é", "[^.]"};
    String[] quantifiers = {"", "", "", "?", "*", "+", "{2}", "{1,3}", "{2,}", "{0,1}", "{0}",
        "+?"};
    String alphabet = "ab-._ 0129\nZ\t";
    Random random = new Random(1);
    int planned = 0;
    for (int n = 0; n < 3000; n++) {
      StringBuilder p = new StringBuilder();
      if (random.nextBoolean()) {
        p.append('^');
      }
      int count = 1 + random.nextInt(5);
      for (int a = 0; a < count; a++) {
        p.append(atoms[random.nextInt(atoms.length)])
            .append(quantifiers[random.nextInt(quantifiers.length)]);
      }
      if (random.nextBoolean()) {
        p.append('$');
      }
      String pattern = p.toString();
      try {
        Pattern.compile(pattern);
      } catch (PatternSyntaxException e) {
        continue;
      }
      planned += SimplePattern.of(pattern).isPresent() ? 1 : 0;
      for (int s = 0; s < 20; s++) {
        StringBuilder input = new StringBuilder();
        int len = random.nextInt(9);
        for (int c = 0; c < len; c++) {
          input.append(random.nextInt(20) == 0 ? "😀"
              : String.valueOf(alphabet.charAt(random.nextInt(alphabet.length()))));
        }
        agree(pattern, input.toString());
      }
    }
    assertThat(planned).isGreaterThan(1000);
  }
}
