/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConformanceRunnerTest {
  @TempDir
  Path dir;

  private record Result(int status, String out, String err) {}

  private static Result main(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = ConformanceMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(status, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  private void write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }

  private static final String GOOD = "testFunction: TestX\nsourceFile: x.go\ncalls:\n"
      + "- call: setFromJSON\n  input: '{\"f:a\":{}}'\n  ok: true\n  toJSON: '{\"f:a\":{}}'\n"
      + "- call: pathString\n  elements:\n  - fieldName: a\n  - index: 1\n  string: .a[1]\n";

  @Test
  void allPassingExitsZero() throws IOException {
    write("fieldpath/Good.yaml", GOOD);
    Result r = main(dir.toString());
    assertThat(r.out()).isEqualTo("2 passed, 0 failed\n");
    assertThat(r.status()).isZero();
  }

  @Test
  void wrongExpectationFailsWithReasonAndNonZeroExit() throws IOException {
    write("fieldpath/Good.yaml", GOOD);
    write("fieldpath/Bad.yaml", GOOD.replace("toJSON: '{\"f:a\":{}}'", "toJSON: '{\"f:b\":{}}'")
        .replace("string: .a[1]", "string: .a[2]"));
    Result r = main(dir.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).contains("FAIL fieldpath/Bad.yaml :: calls[0] setFromJSON: serialization differs")
        .contains("FAIL fieldpath/Bad.yaml :: calls[1] pathString: path string \".a[1]\", expected \".a[2]\"")
        .endsWith("2 passed, 2 failed\n");
  }

  @Test
  void anExpectedErrorMustBeTheReferencesError() throws IOException {
    Path shared = SharedDir.get().resolve("conformance");
    String merge = Files.readString(shared.resolve("merge/TestDefaultKeysFlatErrors.yaml"));
    String typed = Files.readString(shared.resolve("typed/TestSchemaValidation.yaml"));
    write("merge/TestDefaultKeysFlatErrors.yaml", merge.replace("duplicate entries for key",
        "some other failure for key"));
    write("typed/TestSchemaValidation.yaml", typed.replace(
        "error: '.key: expected string, got &value.valueUnstructured{Value:true}'",
        "error: '.value: expected string, got &value.valueUnstructured{Value:true}'"));

    Result r = main(dir.toString());

    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).contains("failed with \".containerPorts: duplicate entries for key"
        + " [port=80,protocol=\\\"TCP\\\"]\" but the reference fails it with \".containerPorts:"
        + " some other failure for key")
        .contains("simple pair / invalid-0: validation errors [.key: expected string, got"
            + " boolean true] lack the reference's \".value: expected string, got");
    // the texts kube's structured-merge-diff writes are matched as they are
    write("merge/TestDefaultKeysFlatErrors.yaml", merge);
    write("typed/TestSchemaValidation.yaml", typed);
    assertThat(main(dir.toString()).status()).isZero();
  }

  @Test
  void unknownCallsAndKeysFailInsteadOfBeingSkipped() throws IOException {
    write("f/Unknown.yaml", "testFunction: T\nsourceFile: x\ncalls:\n- call: teleport\n  input: x\n"
        + "- call: setFromJSON\n  input: '{}'\n  ok: true\n  toJSON: '{}'\n  surprise: 1\n");
    Result r = main(dir.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).contains("calls[0] teleport: unknown call 'teleport'")
        .contains("calls[1] setFromJSON: malformed fixture: unknown key(s) [surprise]")
        .endsWith("0 passed, 2 failed\n");
  }

  @Test
  void expectedFailuresMustFail() throws IOException {
    write("F.yaml", "testFunction: T\nsourceFile: x\ncalls:\n"
        + "- call: setFromJSON\n  input: '{\"f:a\":{}}'\n  ok: false\n  error: boom\n"
        + "- call: deserializePathElement\n  input: 'f:x'\n  ok: false\n");
    Result r = main(dir.toString());
    assertThat(r.out()).contains("expected a parse error").contains("expected an error for")
        .endsWith("0 passed, 2 failed\n");
  }

  @Test
  void unreadableAndUnclaimedFixturesAreFailures() throws IOException {
    write("broken.yaml", "calls: [unclosed\n");
    write("other.yaml", "someOtherFormat: 1\n");
    write("list.yaml", "- 1\n");
    write("ignored.txt", "not a fixture");
    Result r = main(dir.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).contains("FAIL broken.yaml :: <file>: cannot read fixture")
        .contains("FAIL other.yaml :: <file>: no suite accepts this fixture (suites: [")
        .contains("FAIL list.yaml :: <file>: cannot read fixture: top level is not a map")
        .endsWith("0 passed, 3 failed\n");
  }

  @Test
  void emptyDirectoryAndMissingDirectoryAreErrors() {
    Result empty = main(dir.toString());
    assertThat(empty.status()).isEqualTo(1);
    assertThat(empty.out()).isEqualTo("0 passed, 0 failed\n");
    assertThat(empty.err()).contains("no fixtures found");
    Result missing = main(dir.resolve("nope").toString());
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err()).contains("no such fixture directory");
    assertThat(main().status()).isEqualTo(2);
  }

  @Test
  void suiteExceptionsAndEmptyResultsAreFailures() throws IOException {
    write("x.yaml", "calls: []\n");
    FixtureSuite throwing = new FixtureSuite() {
      @Override
      public String name() {
        return "throwing";
      }

      @Override
      public boolean accepts(Fixture fixture) {
        return true;
      }

      @Override
      public List<CaseOutcome> run(Fixture fixture) {
        throw new IllegalStateException("kaput");
      }
    };
    ConformanceReport r = new ConformanceRunner(List.of(throwing)).run(dir);
    assertThat(r.failures()).singleElement().asString()
        .contains("suite throwing failed: java.lang.IllegalStateException: kaput");
    ConformanceReport empty = new ConformanceRunner(List.of(new FieldpathSuite())).run(dir);
    assertThat(empty.failures()).singleElement().asString().contains("found no cases");
    assertThat(empty.allPassed()).isFalse();
  }

  @Test
  void discoveredSuitesIncludeFieldpath() {
    assertThat(ConformanceRunner.withDiscoveredSuites().suites())
        .extracting(FixtureSuite::name).contains("fieldpath");
  }

  @Test
  void verboseListsPassingCases() throws IOException {
    write("Good.yaml", GOOD);
    Result r = main("-v", dir.toString());
    assertThat(r.out()).contains("ok Good.yaml :: calls[0] setFromJSON")
        .contains("ok Good.yaml :: calls[1] pathString");
  }
}
