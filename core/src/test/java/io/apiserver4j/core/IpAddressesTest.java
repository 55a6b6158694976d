/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Expected texts from Go's net.IP.String and k8s.io/utils/net ParseIPSloppy/ParseCIDRSloppy. */
class IpAddressesTest {
  @Test
  void parsesSloppyIpv4AndPrintsAsGo() {
    assertThat(IpAddresses.format(IpAddresses.parse("010.001.002.003"))).isEqualTo("10.1.2.3");
    assertThat(IpAddresses.parse("1.2.3")).isNull();
    assertThat(IpAddresses.parse("256.0.0.1")).isNull();
    assertThat(IpAddresses.parse("example.com")).isNull();
    assertThat(IpAddresses.isIpv4("1.2.3.4")).isTrue();
    assertThat(IpAddresses.isIpv6("1.2.3.4")).isFalse();
  }

  @Test
  void printsIpv6InRfc5952Form() {
    assertThat(IpAddresses.format(IpAddresses.parse("2001:DB8:0:0:0:0:0:1"))).isEqualTo("2001:db8::1");
    assertThat(IpAddresses.format(IpAddresses.parse("2001:db8:0:1:0:0:0:1")))
        .isEqualTo("2001:db8:0:1::1");
    assertThat(IpAddresses.format(IpAddresses.parse("::"))).isEqualTo("::");
    assertThat(IpAddresses.parse("1::2::3")).isNull();
    assertThat(IpAddresses.parse("fe80::1%eth0")).isNull();
    assertThat(IpAddresses.parse("1.2.3.4::")).isNull();
  }

  @Test
  void parsesCidrsMaskingHostBits() {
    IpAddresses.Cidr c = IpAddresses.parseCidr("10.96.0.7/12").orElseThrow();
    assertThat(IpAddresses.format(c.ip())).isEqualTo("10.96.0.0");
    assertThat(c.contains(IpAddresses.parse("10.111.255.255"))).isTrue();
    assertThat(c.contains(IpAddresses.parse("10.112.0.0"))).isFalse();
    assertThat(IpAddresses.parseCidr("2001:db8::/129")).isEmpty();
    assertThat(IpAddresses.parseCidr("10.0.0.0")).isEmpty();
    assertThat(IpAddresses.parseCidr("2001:db8::/64").orElseThrow().ipv6()).isTrue();
  }
}
