/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.fields;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldSelectorTest {
  private static final MapValue POD = (MapValue) Json.read("{\"metadata\":{\"name\":\"p\","
      + "\"namespace\":\"ns\"},\"spec\":{\"nodeName\":\"n1\",\"replicas\":3,\"paused\":false,"
      + "\"ratio\":0.5,\"nothing\":null,\"list\":[1]},\"status\":{\"phase\":\"Running\"}}");

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(delimiter = '|', value = {
      "metadata.name=p|true",
      "metadata.name==p|true",
      "metadata.name!=p|false",
      "metadata.namespace=ns,status.phase=Running|true",
      "metadata.namespace=ns,status.phase!=Running|false",
      "spec.nodeName=|false",
      "spec.missing=|true",
      "spec.missing!=x|true",
      "spec.replicas=3|true",
      "spec.paused=false|true",
      "spec.ratio=0.5|true",
      "spec.nothing=|true",
      "spec.list=[1]|true",
      "metadata.name.deeper=|true",
      "''|true",
  })
  void matchesDottedPathsAsStrings(String selector, boolean expected) {
    assertThat(FieldSelector.parse(selector).matches(POD)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{0}] prints as [{1}]")
  @CsvSource(delimiter = '|', value = {
      "b=2,a=1|a=1,b=2",
      "a==1|a=1",
      "'a=x\\,y'|'a=x\\,y'",
      "'a=x\\=y\\\\'|'a=x\\=y\\\\'",
      ",a=1,|a=1",
  })
  void parsesSortsAndPrints(String input, String printed) {
    assertThat(FieldSelector.parse(input).toString()).isEqualTo(printed);
  }

  @Test
  void unescapesValues() {
    FieldSelector s = FieldSelector.parse("metadata.name=a\\,b\\=c\\\\");
    assertThat(s.terms()).containsExactly(new FieldSelector.Term("metadata.name", false, "a,b=c\\"));
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(delimiter = '|', value = {
      "abc|invalid selector: 'abc'; can't understand 'abc'",
      "a=1,b|invalid selector: 'a=1,b'; can't understand 'b'",
      "'a=x\\y'|invalid field selector: invalid escape sequence: \\y",
      "'a=x\\'|invalid field selector: invalid escape sequence: \\",
      "a=b=c|invalid field selector: unescaped character in value: 61",
  })
  void rejectsMalformedSelectors(String input, String message) {
    assertThatThrownBy(() -> FieldSelector.parse(input))
        .isInstanceOfSatisfying(BadRequestException.class,
            e -> assertThat(e.getMessage()).isEqualTo(message));
  }

  @Test
  void restrictsFieldsWhenAResourceDoes() {
    FieldSelector s = FieldSelector.parse("metadata.name=p,spec.nodeName=n1");
    assertThat(s.fields()).containsExactly("metadata.name", "spec.nodeName");
    assertThat(s.requireSupported(Set.of("metadata.name", "spec.nodeName"))).isSameAs(s);
    assertThatThrownBy(() -> s.requireSupported(List.of("metadata.name")))
        .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.getMessage())
            .isEqualTo("field label not supported: spec.nodeName"));
  }

  @Test
  void combinesAndExtractsRequiredValues() {
    FieldSelector s = FieldSelector.parse("status.phase=Running")
        .and(FieldSelector.equal("metadata.name", "p"));
    assertThat(s.matches(POD)).isTrue();
    assertThat(s.requiredValue("metadata.name")).contains("p");
    assertThat(FieldSelector.notEqual("metadata.name", "p").requiredValue("metadata.name")).isEmpty();
    assertThat(FieldSelector.everything().and(s)).isSameAs(s);
  }
}
