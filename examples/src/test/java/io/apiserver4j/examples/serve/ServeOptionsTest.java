package io.apiserver4j.examples.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServeOptionsTest {

  @Test
  void defaults() {
    assertThat(ServeOptions.parse()).isEqualTo(new ServeOptions(8080, "127.0.0.1",
        Optional.empty(), List.of(), false));
  }

  @Test
  void valuesAsSeparateOrJoinedArguments() {
    ServeOptions o = ServeOptions.parse("--port", "9000", "--kubeconfig=/tmp/k.yaml",
        "--host=localhost");
    assertThat(o.port()).isEqualTo(9000);
    assertThat(o.kubeconfig()).contains(Path.of("/tmp/k.yaml"));
    assertThat(o.host()).isEqualTo("localhost");
    assertThat(ServeOptions.parse("-h").help()).isTrue();
  }

  @Test
  void badArgumentsAreNamed() {
    assertThatThrownBy(() -> ServeOptions.parse("--bogus"))
        .hasMessage("unknown argument: --bogus");
    assertThatThrownBy(() -> ServeOptions.parse("--port"))
        .hasMessage("--port needs a value (N)");
    assertThatThrownBy(() -> ServeOptions.parse("--port", "eighty"))
        .hasMessage("--port must be a number: eighty");
    assertThatThrownBy(() -> ServeOptions.parse("--port", "70000"))
        .hasMessage("--port out of range: 70000");
  }

  @Test
  void etcdTakesOneOrMoreClientUrls() {
    assertThat(ServeOptions.parse("--etcd", "http://127.0.0.1:2379").etcd())
        .containsExactly(URI.create("http://127.0.0.1:2379"));
    assertThat(ServeOptions.parse("--etcd=http://a:1,https://b:2").etcd())
        .containsExactly(URI.create("http://a:1"), URI.create("https://b:2"));
    assertThatThrownBy(() -> ServeOptions.parse("--etcd", "127.0.0.1:2379"))
        .hasMessage("--etcd: expected http://HOST:PORT (or https), got: 127.0.0.1:2379");
    assertThatThrownBy(() -> ServeOptions.parse("--etcd", "http://host"))
        .hasMessage("--etcd: expected http://HOST:PORT (or https), got: http://host");
  }

  @Test
  void usageListsEveryOption() {
    assertThat(ServeOptions.usage()).contains("--port N").contains("--kubeconfig FILE")
        .contains("--host ADDRESS").contains("--etcd URL");
  }
}
