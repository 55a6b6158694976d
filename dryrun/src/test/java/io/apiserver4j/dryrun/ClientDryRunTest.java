/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClientDryRunTest {

  @ParameterizedTest(name = "--dry-run={0}")
  @CsvSource(delimiter = '|', textBlock = """
      none      | NONE   |
      client    | CLIENT |
      server    | SERVER |
      unchanged | CLIENT | --dry-run is deprecated and can be replaced with --dry-run=client.
      true      | CLIENT | --dry-run=true is deprecated (boolean value) and can be replaced with --dry-run=client.
      True      | CLIENT | --dry-run=True is deprecated (boolean value) and can be replaced with --dry-run=client.
      TRUE      | CLIENT | --dry-run=TRUE is deprecated (boolean value) and can be replaced with --dry-run=client.
      t         | CLIENT | --dry-run=t is deprecated (boolean value) and can be replaced with --dry-run=client.
      1         | CLIENT | --dry-run=1 is deprecated (boolean value) and can be replaced with --dry-run=client.
      false     | NONE   | --dry-run=false is deprecated (boolean value) and can be replaced with --dry-run=none.
      F         | NONE   | --dry-run=F is deprecated (boolean value) and can be replaced with --dry-run=none.
      0         | NONE   | --dry-run=0 is deprecated (boolean value) and can be replaced with --dry-run=none.
      """)
  void table(String value, DryRunStrategy strategy, String warning) {
    ClientDryRun.Result r = ClientDryRun.parse(value);
    assertThat(r.strategy()).isEqualTo(strategy);
    if (warning == null) {
      assertThat(r.warnings()).isEmpty();
    } else {
      assertThat(r.warnings()).containsExactly(warning);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"foo", "", "Server", "yes", "2", " none"})
  void invalidValuesNameTheChoices(String value) {
    assertThatThrownBy(() -> ClientDryRun.parse(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid dry-run value (" + value + "). Must be \"none\", \"server\", or"
            + " \"client\".");
  }

  @Test
  void absentBareAndArguments() {
    assertThat(ClientDryRun.absent()).isEqualTo(
        new ClientDryRun.Result(DryRunStrategy.NONE, java.util.List.of()));
    assertThat(ClientDryRun.bareFlag().strategy()).isEqualTo(DryRunStrategy.CLIENT);
    assertThat(ClientDryRun.bareFlag().warnings()).hasSize(1);
    assertThat(ClientDryRun.parseArgument("--dry-run")).isEqualTo(ClientDryRun.bareFlag());
    assertThat(ClientDryRun.parseArgument("--dry-run=server").strategy())
        .isEqualTo(DryRunStrategy.SERVER);
    assertThatThrownBy(() -> ClientDryRun.parseArgument("--dry-run="))
        .hasMessage("Invalid dry-run value (). Must be \"none\", \"server\", or \"client\".");
    assertThatThrownBy(() -> ClientDryRun.parseArgument("--server-dry-run"))
        .hasMessage("not a --dry-run flag: --server-dry-run");
  }
}
