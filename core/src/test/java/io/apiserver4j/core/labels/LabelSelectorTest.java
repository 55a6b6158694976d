/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.labels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class LabelSelectorTest {
  @ParameterizedTest(name = "[{0}] prints as [{1}]")
  @CsvSource(delimiter = '|', value = {
      "x=a,y=b,z=c|x=a,y=b,z=c",
      "''|''",
      "x!=a,y=b|x!=a,y=b",
      "x=|x=",
      "'x= '|x=",
      "'x=,z= '|x=,z=",
      "'x= ,z= '|x=,z=",
      "!x|!x",
      "x>1|x>1",
      "x>1,z<5|x>1,z<5",
      "'z in (b, a), y'|y,z in (a,b)",
      "x==a|x==a",
      "'  x  notin  ( c,a )  '|x notin (a,c)",
      "'x in ()'|x in ()",
      "'x in (,a)'|x in (,a)",
      "'in in (in)'|in in (in)",
      "example.com/app=web|example.com/app=web",
  })
  void parsesAndPrintsLikeApimachinery(String input, String printed) {
    assertThat(LabelSelector.parse(input).toString()).isEqualTo(printed);
  }

  static Stream<Arguments> badSelectors() {
    String ops = "in, notin, =, ==, !=, gt, lt";
    return Stream.of(
        // '|' is not an operator character, so "a||y" lexes as one (invalid) value
        Arguments.of("x=a||y=b", "unable to parse requirement: values[0][x]: Invalid value: "
            + "\"a||y\": a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character "
            + "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
            + "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
        Arguments.of("x==a==b", "found '==', expected: ',' or 'end of string'"),
        Arguments.of("!x=a", "found '=', expected: ',' or 'end of string'"),
        Arguments.of("x<a", "unable to parse requirement: values[0]: Invalid value: \"a\": "
            + "for 'Gt', 'Lt' operators, the value must be an integer"),
        Arguments.of("x (", "unable to parse requirement: found '(', expected: " + ops),
        Arguments.of("x in", "unable to parse requirement: found '' expected: '('"),
        Arguments.of("x in (a", "unable to parse requirement: found '', expected: ',' or ')'"),
        Arguments.of("x in (a b)", "unable to parse requirement: found 'b', expected: ',' or ')'"),
        Arguments.of("x,", "found '', expected: identifier after ','"),
        Arguments.of(",x", "found ',', expected: !, identifier, or 'end of string'"),
        Arguments.of("x=a,=b", "found '=', expected: identifier after ','"),
        Arguments.of("x=-a", "unable to parse requirement: values[0][x]: Invalid value: \"-a\": "
            + "a valid label must be an empty string or consist of alphanumeric characters, '-', "
            + "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue', "
            + " or 'my_value',  or '12345', regex used for validation is "
            + "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
        Arguments.of("-x=a", "unable to parse requirement: : Invalid value: \"-x\": name part "
            + "must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
            + "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
            + "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
        Arguments.of("Example.com/x", "unable to parse requirement: : Invalid value: "
            + "\"Example.com/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower "
            + "case alphanumeric characters, '-' or '.', and must start and end with an "
            + "alphanumeric character (e.g. 'example.com', regex used for validation is "
            + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        Arguments.of("a/b/c", "unable to parse requirement: : Invalid value: \"a/b/c\": a valid "
            + "label key must consist of alphanumeric characters, '-', '_' or '.', and must start "
            + "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
            + "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') "
            + "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"),
        Arguments.of("x=" + "a".repeat(64), "unable to parse requirement: values[0][x]: Invalid "
            + "value: \"" + "a".repeat(64) + "\": must be no more than 63 bytes"),
        // the lexer takes the longest operator prefix: "!!" is "!" followed by "!"
        Arguments.of("x !! y", "unable to parse requirement: found '!', expected: " + ops));
  }

  @ParameterizedTest(name = "[{0}]")
  @MethodSource("badSelectors")
  void rejectsBadSelectorsWithApimachinerysMessage(String input, String message) {
    assertThatThrownBy(() -> LabelSelector.parse(input))
        .isInstanceOfSatisfying(BadRequestException.class, e -> {
          assertThat(e.code()).isEqualTo(400);
          assertThat(e.getMessage()).isEqualTo(message);
        });
  }

  @ParameterizedTest(name = "[{0}] on {1} -> {2}")
  @CsvSource(delimiter = '|', value = {
      "app=web|app=web|true",
      "app=web|app=db|false",
      "app=web|''|false",
      "app!=web|''|true",
      "app!=web|app=db|true",
      "app!=web|app=web|false",
      "app in (a,b)|app=b|true",
      "app in (a,b)|app=c|false",
      "app notin (a,b)|''|true",
      "app notin (a,b)|app=a|false",
      "app|app=|true",
      "app|other=x|false",
      "!app|other=x|true",
      "!app|app=x|false",
      "n>5|n=6|true",
      "n>5|n=5|false",
      "n<5|n=-1|true",
      "n<5|n=x|false",
      "n<5|''|false",
      "app=web,tier|app=web;tier=x|true",
      "app=web,tier|app=web|false",
      "app=|app=|true",
      "''|app=web|true",
  })
  void matchesLikeApimachinery(String selector, String labels, boolean expected) {
    Map<String, String> map = new java.util.LinkedHashMap<>();
    if (!labels.isEmpty()) {
      for (String kv : labels.split(";")) {
        String[] parts = kv.split("=", -1);
        map.put(parts[0], parts[1]);
      }
    }
    LabelSelector s = LabelSelector.parse(selector);
    assertThat(s.matches(map)).isEqualTo(expected);
    MapValue.Builder labelValues = MapValue.builder();
    map.forEach((k, v) -> labelValues.put(k, Value.of(v)));
    MapValue object = MapValue.ofEntries("metadata",
        MapValue.ofEntries("labels", labelValues.build()));
    assertThat(s.matches(object)).isEqualTo(expected);
  }

  @Test
  void objectsWithoutLabelsHaveNone() {
    assertThat(LabelSelector.parse("!app").matches(MapValue.empty())).isTrue();
    assertThat(LabelSelector.parse("app").matches(MapValue.empty())).isFalse();
    assertThat(LabelSelector.everything().matches(MapValue.empty())).isTrue();
  }

  @Test
  void requirementsAreSortedByKeyAndValuesDeduplicated() {
    LabelSelector s = LabelSelector.parse("b in (y,x,y),a");
    assertThat(s.requirements()).containsExactly(
        new LabelSelector.Requirement("a", LabelSelector.Operator.EXISTS, java.util.List.of()),
        new LabelSelector.Requirement("b", LabelSelector.Operator.IN, java.util.List.of("x", "y")));
    assertThat(s).isEqualTo(LabelSelector.parse("a, b in (x,y)"));
    assertThat(LabelSelector.ofEquals(Map.of("k", "v")).toString()).isEqualTo("k=v");
    assertThat(LabelSelector.parse("  ").isEverything()).isTrue();
  }
}
