/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.core.Values;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube's version priority ({@code version.CompareKubeAwareVersionStrings}): GA before beta before
 * alpha, higher numbers first, versions not shaped like {@code v1beta2} last in lexical order.
 * The first version of a group in this order is its preferred version.
 */
public final class Versions {
  private static final Pattern KUBE = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

  /** Most preferred first. */
  public static final Comparator<String> PRIORITY = Versions::compare;

  private Versions() {}

  private static int compare(String a, String b) {
    Matcher ma = KUBE.matcher(a);
    Matcher mb = KUBE.matcher(b);
    boolean ka = ma.matches();
    boolean kb = mb.matches();
    if (!ka || !kb) {
      if (ka != kb) {
        return ka ? -1 : 1;
      }
      return Values.compareStrings(a, b);
    }
    int sa = stability(ma.group(2));
    int sb = stability(mb.group(2));
    if (sa != sb) {
      return Integer.compare(sb, sa);
    }
    int c = Long.compare(Long.parseLong(mb.group(1)), Long.parseLong(ma.group(1)));
    if (c != 0) {
      return c;
    }
    if (ma.group(3) == null) {
      return 0;
    }
    return Long.compare(Long.parseLong(mb.group(3)), Long.parseLong(ma.group(3)));
  }

  private static int stability(String qualifier) {
    if (qualifier == null) {
      return 2;
    }
    return qualifier.equals("beta") ? 1 : 0;
  }
}
