/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The block-style fast path reads what the general parser reads, and leaves everything else to
 * it. The general parser's answers are the reference (its own tests hold them to yaml.v2's and
 * sigs.k8s.io/yaml's).
 */
class BlockYamlReaderTest {
  private static final String DEPLOYMENT = """
      ---
      # a comment line
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: nginx
        labels:
          app: nginx
          app.kubernetes.io/part-of: web
        annotations:
          owner-a: "12"
          quoted: 'it''s'
      spec:
        replicas: 3
        paused: false
        progressDeadlineSeconds: 0x10
        template:
          spec:
            containers:
            - name: nginx
              image: nginx:1.14.2
              args: [--port, "80", -v]
              resources:
                limits: {cpu: 500m, memory: 1Gi}
                requests: {}
              ports:
              -   containerPort: 80
                  protocol: TCP
              - containerPort: 443
            volumes: []
            nodeSelector:
            tolerations:
              - key: a
              -
              - plain item
      """;

  private static Value general(String yaml) {
    List<Value> docs = Yaml.readAll(yaml);
    assertThat(docs).hasSize(1);
    return docs.get(0);
  }

  @Test
  void readsTheBlockStyleOfManifestsAsTheGeneralParserDoes() {
    Value fast = BlockYamlReader.read(DEPLOYMENT, DecodeLimits.DEFAULT);
    assertThat(fast).isNotNull().isEqualTo(general(DEPLOYMENT));
    assertThat(Yaml.read(DEPLOYMENT)).isEqualTo(fast);
    assertThat(Nested.getOrNull(fast, "spec", "progressDeadlineSeconds"))
        .isEqualTo(IntegerValue.of(16));
    assertThat(Nested.getOrNull(fast, "spec", "paused")).isEqualTo(BooleanValue.FALSE);
    assertThat(Nested.getOrNull(fast, "metadata", "annotations", "owner-a"))
        .isEqualTo(new StringValue("12"));
    assertThat(Nested.getOrNull(fast, "metadata", "annotations", "quoted"))
        .isEqualTo(new StringValue("it's"));
    assertThat(Nested.getOrNull(fast, "spec", "template", "spec", "nodeSelector"))
        .isEqualTo(NullValue.INSTANCE);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "a: 1\nb:\n- x\n- y\nc: d\n",
      "- a: 1\n  b: 2\n- c\n-\n- [1, 2.5, yes, ~, 'q']\n",
      "  a: 1\n  b: 2\n",
      "a:\n  - b:\n    - c\n    d: e\n",
      "a: foo:bar\nb: http://x/y#z\nc: -1\nd: .5\ne: 1_000\nf: 0b101\n",
      "a: {b: \"c,d\", e: 'f'}\n",
  })
  void readsItsSubsetAsTheGeneralParserDoes(String yaml) {
    Value fast = BlockYamlReader.read(yaml, DecodeLimits.DEFAULT);
    assertThat(fast).isNotNull().isEqualTo(general(yaml));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "",
      "# only a comment\n",
      "plain scalar\n",
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "a: |\n  text\n",
      "a: >\n  text\n",
      "a: foo\n  continued\n",
      "a: \"multi\n  line\"\n",
      "a: \"esc\\n\"\n",
      "a: 1 # trailing comment\n",
      "a:\tb\n",
      "a: b\r\n",
      "a: caf\u00e9\n",
      "a: 1\n---\nb: 2\n",
      "a: 1\na: 2\n",
      "<<: {a: 1}\n",
      "1: a\n",
      "yes: a\n",
      "\"quoted key\": a\n",
      "a: b: c\n",
      "a: [1, [2]]\n",
      "a: {b: {c: 1}}\n",
      "a: [1, ]\n",
      "a: [-, 1]\n",
      "a: .inf\n",
      "- - a\n",
      "a:\n  b: 1\n c: 2\n",
      "a:\n    b: 1\n  c: 2\n",
  })
  void leavesEverythingElseToTheGeneralParser(String yaml) {
    assertThat(BlockYamlReader.read(yaml, DecodeLimits.DEFAULT)).isNull();
  }

  @Test
  void leavesDocumentsOverTheLimitsToTheGeneralParser() {
    String nested = "a:\n  b:\n    c: 1\n";
    assertThat(BlockYamlReader.read(nested, DecodeLimits.DEFAULT.withMaxDepth(2))).isNull();
    assertThat(BlockYamlReader.read(nested, DecodeLimits.DEFAULT.withMaxDepth(3))).isNotNull();
    assertThat(BlockYamlReader.read("a: 1\nb: 2\n", DecodeLimits.DEFAULT.withMaxNodes(2)))
        .isNull();
  }

  /**
   * Mutations of documents inside the subset (characters deleted, inserted or replaced with YAML
   * indicators, spaces and line breaks): whatever the fast path accepts, the general parser reads
   * to the same value. A fixed seed keeps the cases the same on every run.
   */
  @Test
  void acceptsNoMutationTheGeneralParserReadsDifferently() {
    List<String> seeds = List.of(DEPLOYMENT,
        "a:\n  - x\n  -\n    - z\n  - q: 1\n    r:\n    - s\n- y\nb: {c: 1}\n",
        "a:\n- x\n- y\nb: {c: 1, d: 'e''f', g: \"h\"}\nk: [1, 2.5, -3, yes, ~, \"x\"]\n");
    String alphabet = ":#- '\"{}[],&*!|>?%@`\n \t~.0y_/\\<=";
    Random random = new Random(29);
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      StringBuilder doc = new StringBuilder(seeds.get(random.nextInt(seeds.size())));
      for (int k = 1 + random.nextInt(3); k > 0 && doc.length() > 0; k--) {
        int at = random.nextInt(doc.length());
        char c = alphabet.charAt(random.nextInt(alphabet.length()));
        switch (random.nextInt(3)) {
          case 0 -> doc.deleteCharAt(at);
          case 1 -> doc.insert(at, c);
          default -> doc.setCharAt(at, c);
        }
      }
      String yaml = doc.toString();
      Value fast = BlockYamlReader.read(yaml, DecodeLimits.DEFAULT);
      if (fast == null) {
        continue;
      }
      accepted++;
      assertThat(Yaml.readAll(yaml)).as(yaml).containsExactly(fast);
    }
    assertThat(accepted).isGreaterThan(1_000);
  }

  /**
   * Every document of the real-world manifests and third-party CRDs in {@code ../shared} that the
   * fast path accepts reads as the general parser reads it.
   */
  @Test
  void readsEveryAcceptedSharedDocumentAsTheGeneralParserDoes() throws IOException {
    Path shared = Path.of(System.getProperty("apiserver4j.shared", "../shared"));
    Pattern separator = Pattern.compile("(?m)^---[ \\t]*$");
    int accepted = 0;
    for (String dir : List.of("realworld", "crds")) {
      List<Path> files;
      try (Stream<Path> walk = Files.walk(shared.resolve(dir))) {
        files = walk.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
            .sorted().toList();
      }
      assertThat(files).as(dir).isNotEmpty();
      for (Path f : files) {
        for (String doc : separator.split(Files.readString(f))) {
          Value fast = BlockYamlReader.read(doc, DecodeLimits.DEFAULT);
          if (fast != null) {
            accepted++;
            assertThat(Yaml.readAll(doc)).as(f + ":\n" + doc).containsExactly(fast);
          }
        }
      }
    }
    assertThat(accepted).isGreaterThan(500);
  }
}
