package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.Status;
import io.apiserver4j.core.StatusErrors;
import io.apiserver4j.core.StatusException;
import io.apiserver4j.core.StatusReason;
import java.math.BigInteger;

/**
 * kube-apiserver's reading of the {@code resourceVersion} query parameter of reads. Its storage
 * versioner parses it as a Go {@code uint64}; what a malformed value becomes depends on the path:
 * a list validates its options first ({@code storage.ValidateListOptions}: 400 {@code invalid
 * resource version: ...}); a get or a watch served by the watch cache returns the versioner's
 * {@code InvalidError} unconverted, which the handler writes as a 500 with an empty reason.
 */
final class ResourceVersionParam {
  private static final BigInteger MAX_UINT64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private ResourceVersionParam() {}

  /**
   * {@code rv}, if it is a resource version kube would accept for {@code verb}.
   *
   * @throws StatusException as kube answers a malformed one
   */
  static String check(String rv, ApiRequest.Verb verb) {
    if (verb != ApiRequest.Verb.LIST && verb != ApiRequest.Verb.GET
        && verb != ApiRequest.Verb.WATCH) {
      return rv;
    }
    String problem = parseUintProblem(rv);
    if (problem == null) {
      return rv;
    }
    String invalid = "resourceVersion: Invalid value: " + GoStrings.quote(rv) + ": " + problem;
    if (verb == ApiRequest.Verb.LIST) {
      throw StatusErrors.badRequest("invalid resource version: " + invalid);
    }
    throw StatusException.of(Status.failure(StatusReason.UNKNOWN, invalid));
  }

  /** Go's {@code strconv.ParseUint(s, 10, 64)} error text, or null when {@code s} parses. */
  static String parseUintProblem(String s) {
    if (s.isEmpty() || s.equals("0")) {
      return null;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return "strconv.ParseUint: parsing " + GoStrings.quote(s) + ": invalid syntax";
      }
    }
    if (s.length() > 19 && new BigInteger(s).compareTo(MAX_UINT64) > 0) {
      return "strconv.ParseUint: parsing " + GoStrings.quote(s) + ": value out of range";
    }
    return null;
  }
}
