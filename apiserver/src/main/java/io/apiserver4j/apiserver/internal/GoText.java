package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.GoStrings;

/**
 * Go's text helpers that kube-apiserver's messages depend on: {@code %q} and {@code unicode.IsPrint}.
 * Short names for {@link GoStrings}, which holds the implementation.
 */
public final class GoText {
  private GoText() {}

  /** Go's {@code unicode.IsPrint}; see {@link GoStrings#isPrint(int)}. */
  public static boolean isPrint(int cp) {
    return GoStrings.isPrint(cp);
  }

  /** Go's {@code strconv.Quote} ({@code %q} of a string); see {@link GoStrings#quote(String)}. */
  public static String quote(String s) {
    return GoStrings.quote(s);
  }
}
