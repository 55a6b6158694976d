/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import io.apiserver4j.apimachinery.decoding.GoParsing;

/** The Go parsers behind kube's string-decoded types, against kube's and Go's own tables. */
class GoParsingTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      // apimachinery pkg/api/resource quantity_test.go TestQuantityString: each canonical form
      // parses to itself, each alternate to the canonical form
      "1Gi,1Gi", "1024Mi,1Gi", "300Mi,300Mi", "307200Ki,300Mi", "6Ki,6Ki", "1001Gi,1001Gi",
      "1025024Mi,1001Gi", "1024Gi,1Ti", "5000m,5", "0.5,500m", "1000M,1G", "0.001T,1G",
      "1000u,1m", "80m,80m", "1.08,1080m", "1080000000n,1080m", "300M,300M", "1T,1T",
      "1234567M,1234567M", "3k,3k", "1025,1025", "0,0", ".001e12,1e9", "0.001e0,1e-3",
      "1000e-12,1e-9", "80e-3,80e-3", "300e6,300e6", "1e3,1e3", "00,0", "1n,1n", "1080n,1080n",
      "1u,1u", "1080u,1080u",
      // TestQuantityParseEmit
      "1Ki,1Ki", "1Mi,1Mi", "1024Mi,1Gi", "1000M,1G", ".001Ki,1024m", ".000001Ki,1024u",
      ".000000001Ki,1024n", ".000000000001Ki,2n", "-1024Mi,-1Gi", "-.001Ki,-1024m",
      // rounded up to a nano unit (ParseQuantity's Round(..., Nano, RoundUp)), also when tiny;
      // an exponent given keeps the DecimalExponent format
      "1e-10,1e-9", "1e-2000000000,1e-9", "-1e-2000000000,-1e-9", "0.0000000001,1n",
      "1.0000000001,1000000001n"})
  void quantitiesAreWrittenAsKubeWritesThem(String in, String written) {
    assertThat(GoParsing.quantityError(in)).isNull();
    assertThat(GoParsing.canonicalQuantity(in)).isEqualTo(written);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(delimiter = '|', value = {
      // quantity_test.go TestQuantityParse's invalid table; which error each gets follows
      // parseQuantityString (ErrFormatWrong) and suffixHandler.interpret (ErrSuffix)
      "1.1.M|quantities", "1+1.0M|quantities", "0.1mi|suffix", "0.1am|quantities",
      "aoeu|quantities", ".5i|suffix", "1i|suffix", "-3.01i|suffix", "-3.01e-|suffix",
      "' 1'|quantities", "'1 '|quantities", "''|quantities"})
  void badQuantitiesFailWithKubesErrors(String in, String which) {
    assertThat(GoParsing.quantityError(in)).isEqualTo(which.equals("suffix")
        ? GoParsing.QUANTITY_SUFFIX : GoParsing.QUANTITY_FORMAT);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // Go's encoding/base64 CorruptInputError offsets (decode_test of encoding/base64: padding
      // is required, a lone or misplaced '=' is corrupt, newlines are skipped)
      "aGk=|", "aGVsbG8=|", "aGk|0", "a|0", "aGk=x|4", "a===|1", "aGk==|4", "!aGk|0",
      "aGVsbG8gd29ybGQ|12"})
  void base64AsGo(String in, String offset) {
    String[] error = new String[1];
    byte[] out = GoParsing.base64(in, error);
    if (offset == null) {
      assertThat(out).isNotNull();
      assertThat(error[0]).isNull();
    } else {
      assertThat(out).isNull();
      assertThat(error[0]).isEqualTo("illegal base64 data at input byte " + offset);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // Go's time.Parse(time.RFC3339, ...) (time/format_test.go and ParseError.Error)
      "2006-01-02T15:04:05Z|2006-01-02T15:04:05Z",
      "2006-01-02T15:04:05.999999999+07:00|2006-01-02T08:04:05Z",
      "2006-01-02T1:04:05Z|2006-01-02T01:04:05Z",
      "2006-01-02T15:04:05|parsing time \"2006-01-02T15:04:05\" as \"2006-01-02T15:04:05Z07:00\":"
          + " cannot parse \"\" as \"Z07:00\"",
      "2006-01-32T15:04:05Z|parsing time \"2006-01-32T15:04:05Z\": day out of range",
      "2006-02-29T15:04:05Z|parsing time \"2006-02-29T15:04:05Z\": day out of range",
      "2006-01-02 15:04:05Z|parsing time \"2006-01-02 15:04:05Z\" as"
          + " \"2006-01-02T15:04:05Z07:00\": cannot parse \" 15:04:05Z\" as \"T\"",
      "2006-01-02T25:04:05Z|parsing time \"2006-01-02T25:04:05Z\": hour out of range"})
  void rfc3339AsGo(String in, String expected) {
    GoParsing.ParsedTime t = GoParsing.parseTime(GoParsing.RFC3339, in);
    if (expected.startsWith("parsing time")) {
      assertThat(t.error()).isEqualTo(expected);
    } else {
      assertThat(t.error()).isNull();
      assertThat(GoParsing.formatTime(t.time(), false)).isEqualTo(expected);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"2006-01-02T15:04:05Z,false,true", "2006-02-29T15:04:05Z,false,false",
      "2006-01-02T24:04:05Z,false,false", "2006-01-02T15:04:05.000001Z,true,true",
      "2006-01-02T15:04:05.000001Z,false,false", "2006-01-02T15:04:05Z,true,false"})
  void canonicalTimesAreRecognizedWithoutParsing(String v, boolean micro, boolean canonical) {
    assertThat(GoParsing.isCanonicalTime(v, micro)).isEqualTo(canonical);
    GoParsing.ParsedTime parsed = GoParsing.parseTime(micro ? GoParsing.RFC3339_MICRO
        : GoParsing.RFC3339, v);
    if (canonical) {
      assertThat(GoParsing.formatTime(parsed.time(), micro)).isEqualTo(v);
    }
  }
}
