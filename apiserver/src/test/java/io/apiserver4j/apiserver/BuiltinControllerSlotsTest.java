/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Handing a server's controllers over: exactly one instance runs at any time. */
class BuiltinControllerSlotsTest {
  private final List<String> log = new ArrayList<>();
  private final BuiltinController.Slots slots = new BuiltinController.Slots();

  private void add(String name) {
    slots.add(name, () -> {
      log.add("start " + name);
      return () -> log.add("stop " + name);
    });
  }

  @Test
  void aHandedOverControllerStopsAndStartsAgainWhenTheLastHandoverCloses() {
    add("a");
    BuiltinController.Handover first = slots.handOver("a");
    BuiltinController.Handover second = slots.handOver("a");
    first.close();
    first.close();
    assertThat(log).containsExactly("start a", "stop a");
    second.close();
    assertThat(log).containsExactly("start a", "stop a", "start a");
  }

  @Test
  void theHolderCanRunTheServersImplementationUntilItCloses() throws Exception {
    add("a");
    BuiltinController.Handover h = slots.handOver("a");
    AutoCloseable instance = h.startInstance();
    instance.close();
    h.close();
    assertThat(log).containsExactly("start a", "stop a", "start a", "stop a", "start a");
    assertThatThrownBy(h::startInstance).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a");
  }

  @Test
  void aClosedServerStartsNothingWhenAHandoverCloses() {
    add("a");
    add("b");
    BuiltinController.Handover h = slots.handOver("a");
    slots.closeAll();
    h.close();
    assertThat(log).containsExactly("start a", "start b", "stop a", "stop b");
  }

  @Test
  void anUnknownNameIsRefusedNamingWhatRuns() {
    add("a");
    assertThatThrownBy(() -> slots.handOver("x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("x").hasMessageContaining("[a]");
    assertThat(slots.names()).containsExactly("a");
  }
}
