package io.apiserver4j.admission.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cases from RFC 6902 appendix A, plus failures. */
class JsonPatchTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      add object member      | {"foo":"bar"}                | [{"op":"add","path":"/baz","value":"qux"}]                   | {"foo":"bar","baz":"qux"}
      add array element      | {"foo":["bar","baz"]}        | [{"op":"add","path":"/foo/1","value":"qux"}]                 | {"foo":["bar","qux","baz"]}
      append with dash       | {"foo":["bar"]}              | [{"op":"add","path":"/foo/-","value":"x"}]                   | {"foo":["bar","x"]}
      remove object member   | {"baz":"qux","foo":"bar"}    | [{"op":"remove","path":"/baz"}]                              | {"foo":"bar"}
      remove array element   | {"foo":["bar","qux","baz"]}  | [{"op":"remove","path":"/foo/1"}]                            | {"foo":["bar","baz"]}
      replace value          | {"baz":"qux","foo":"bar"}    | [{"op":"replace","path":"/baz","value":"boo"}]               | {"baz":"boo","foo":"bar"}
      move value             | {"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}} | [{"op":"move","from":"/foo/waldo","path":"/qux/thud"}] | {"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}
      move array element     | {"foo":["all","grass","cows","eat"]} | [{"op":"move","from":"/foo/1","path":"/foo/3"}]      | {"foo":["all","cows","eat","grass"]}
      copy                   | {"a":{"b":1}}                | [{"op":"copy","from":"/a","path":"/c"}]                      | {"a":{"b":1},"c":{"b":1}}
      test success           | {"baz":"qux","foo":["a",2,"c"]} | [{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}] | {"baz":"qux","foo":["a",2,"c"]}
      escaped keys           | {"a/b":1,"m~n":2}            | [{"op":"replace","path":"/a~1b","value":3},{"op":"remove","path":"/m~0n"}] | {"a/b":3}
      replace root           | {"a":1}                      | [{"op":"replace","path":"","value":{"b":2}}]                 | {"b":2}
      """)
  void applies(String name, String doc, String patch, String expected) {
    assertThat(JsonPatch.apply(Json.read(doc), (ListValue) Json.read(patch)))
        .isEqualTo(Json.read(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      missing parent         | {"foo":"bar"}     | [{"op":"add","path":"/baz/bat","value":"qux"}]  | operation 0: missing value at /baz
      replace missing        | {}                | [{"op":"replace","path":"/a","value":1}]        | operation 0: missing value at /a
      remove missing         | {"a":[1]}         | [{"op":"remove","path":"/a/1"}]                 | operation 0: index 1 out of bounds at /a/1
      test failure           | {"baz":"qux"}     | [{"op":"test","path":"/baz","value":"bar"}]     | operation 0 (test): value at /baz is "qux", not "bar"
      bad index              | {"a":[1]}         | [{"op":"add","path":"/a/01","value":1}]         | operation 0: invalid array index "01" at /a/01
      unknown op             | {}                | [{"op":"merge","path":"/a","value":1}]          | operation 0: unsupported op "merge"
      missing value          | {}                | [{"op":"add","path":"/a"}]                      | operation 0: "value" is missing
      bad pointer            | {}                | [{"op":"add","path":"a","value":1}]             | operation 0: path "a" must be empty or start with /
      move into child        | {"a":{"b":1}}     | [{"op":"move","from":"/a","path":"/a/c"}]       | operation 0 (move): cannot move a value into one of its children
      scalar parent          | {"a":1}           | [{"op":"add","path":"/a/b","value":1}]          | operation 0: /a is neither an object nor an array
      second op fails        | {}                | [{"op":"add","path":"/a","value":1},{"op":"remove","path":"/b"}] | operation 1: missing value at /b
      """)
  void fails(String name, String doc, String patch, String message) {
    assertThatThrownBy(() -> JsonPatch.apply(Json.read(doc), (ListValue) Json.read(patch)))
        .isInstanceOf(JsonPatch.PatchException.class)
        .hasMessage(message);
  }
}
