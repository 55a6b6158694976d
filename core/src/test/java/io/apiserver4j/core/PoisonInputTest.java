/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Input that decodes must encode again (issue 17): numbers that overflow a float are rejected
 * with Go's {@code encoding/json} error, and values as deep as the readers accept are written,
 * compared and hashed without recursion.
 */
class PoisonInputTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "{\"generation\":1e400}|1e400",
      "{\"a\":[-1.5e309]}|-1.5e309",
      "[1E+999]|1E+999"})
  void overflowingNumbersAreGoDecodingErrors(String json, String literal) {
    // Go's decoder into interface{}: strconv.ParseFloat fails with a range error
    String expected = "json: cannot unmarshal number " + literal + " into Go value of type float64";
    assertThatThrownBy(() -> Json.read(json)).isInstanceOf(DecodeException.class)
        .hasMessage(expected);
    assertThatThrownBy(() -> Json.read(json.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(DecodeException.class).hasMessage(expected);
  }

  @Test
  void anOverflowingIntegerLiteralIsRejectedToo() {
    String digits = "1" + "0".repeat(400);
    assertThatThrownBy(() -> Json.read("{\"n\":" + digits + "}"))
        .isInstanceOf(DecodeException.class)
        .hasMessage("json: cannot unmarshal number " + digits + " into Go value of type float64");
  }

  @Test
  void underflowIsZeroAsInGo() {
    assertThat(Json.read("[1e-400]")).isEqualTo(ListValue.of(java.util.List.of(Value.of(0.0))));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "v: .inf|+Inf", "v: -.Inf|-Inf", "v: .nan|NaN", "[1, .INF]|+Inf", "v: !!float .inf|+Inf",
      ".nan|NaN"})
  void yamlInfinitiesFailAsKubesYamlToJsonConversion(String yaml, String go) {
    // sigs.k8s.io/yaml converts to JSON with encoding/json, which cannot marshal them
    assertThatThrownBy(() -> Yaml.read(yaml)).isInstanceOf(DecodeException.class)
        .hasMessage("json: unsupported value: " + go);
  }

  @Test
  void yamlOverflowingLiteralsAreStringsAsInYamlV2() {
    assertThat(Yaml.read("v: 1e400")).isEqualTo(MapValue.ofEntries("v", Value.of("1e400")));
    assertThat(Yaml.read(".inf: 1")).isEqualTo(MapValue.ofEntries(".inf", Value.of(1L)));
  }

  private static String nested(int depth) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      sb.append(i % 2 == 0 ? "{\"a\":" : "[");
    }
    sb.append("1");
    for (int i = depth - 1; i >= 0; i--) {
      sb.append(i % 2 == 0 ? "}" : "]");
    }
    return sb.toString();
  }

  /** Runs {@code r} on a thread with a small stack, as a busy server thread might have left. */
  private static void onSmallStack(Runnable r) throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread t = new Thread(null, () -> {
      try {
        r.run();
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "small-stack", 128 * 1024);
    t.start();
    t.join();
    assertThat(failure.get()).isNull();
  }

  @Test
  void valuesAsDeepAsTheLimitAreWrittenComparedAndHashedWithoutRecursion() throws Exception {
    String json = nested(DecodeLimits.MAX_DEPTH - 1);
    onSmallStack(() -> {
      Value a = Json.read(json);
      Value b = Json.read(json.getBytes(StandardCharsets.UTF_8));
      assertThat(a.equals(b)).isTrue();
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
      assertThat(Json.write(a)).isEqualTo(json);
      assertThat(new String(Json.writeBytes(a), StandardCharsets.UTF_8)).isEqualTo(json);
      Value c = Json.read(json.replace("1", "2"));
      assertThat(a.equals(c)).isFalse();
      String yaml = Yaml.write(a);
      assertThat(Yaml.read(yaml)).isEqualTo(a);
    });
  }

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  private static byte[] quoted(byte[] inner) {
    byte[] out = new byte[inner.length + 2];
    out[0] = '"';
    System.arraycopy(inner, 0, out, 1, inner.length);
    out[out.length - 1] = '"';
    return out;
  }

  @Test
  void invalidUtf8IsReplacedByteByByteAsGoDecodesIt() {
    // Go's utf8.DecodeRune yields (RuneError, 1) for each byte that starts no valid sequence
    assertThat(Json.read(quoted(bytes(0xC0, 0xAF)))).isEqualTo(Value.of("\uFFFD\uFFFD"));
    assertThat(Json.read(quoted(bytes(0xE0, 0x80, 0xAF)))).isEqualTo(Value.of("\uFFFD\uFFFD\uFFFD"));
    assertThat(Json.read(quoted(bytes(0xED, 0xA0, 0x80)))).isEqualTo(Value.of("\uFFFD\uFFFD\uFFFD"));
    assertThat(Json.read(quoted(bytes(0xF4, 0x90, 0x80, 0x80))))
        .isEqualTo(Value.of("\uFFFD\uFFFD\uFFFD\uFFFD"));
    assertThat(Json.read(quoted(bytes('a', 0xE2, 0x82, 'b')))).isEqualTo(Value.of("a\uFFFD\uFFFDb"));
    assertThat(Json.read(quoted(bytes(0xE2, 0x82, 0xAC)))).isEqualTo(Value.of("\u20AC"));
    assertThat(Json.read(quoted(bytes(0xF0, 0x9F, 0x98, 0x80)))).isEqualTo(Value.of("\uD83D\uDE00"));
    byte[] key = new byte[] {'{', '"', (byte) 0xC1, (byte) 0xBF, '"', ':', '1', '}'};
    assertThat(Json.read(key)).isEqualTo(MapValue.ofEntries("\uFFFD\uFFFD", Value.of(1L)));
  }

  @Test
  void loneSurrogateEscapesAreReplacementCharactersAndWriteBack() {
    Value v = Json.read("[\"\\ud800x\",\"\\udc00\",\"\\ud83d\\ude00\"]");
    assertThat(v).isEqualTo(Json.read("[\"\uFFFDx\",\"\uFFFD\",\"\uD83D\uDE00\"]"));
    assertThat(new String(Json.writeBytes(v), StandardCharsets.UTF_8)).contains("\uFFFD");
  }
}
