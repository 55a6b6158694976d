/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.serviceaccount;

import java.math.BigInteger;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;

/**
 * Scalar multiplication on a prime-field Weierstrass curve in affine coordinates, for the one
 * thing the JDK does not offer: the public point of an EC private key read from a file (kube
 * names a key by its public half). Not constant-time: it runs once per key, on the key's owner.
 */
final class EcMath {
  private static final BigInteger TWO = BigInteger.valueOf(2);
  private static final BigInteger THREE = BigInteger.valueOf(3);

  private EcMath() {}

  /** {@code k} times the generator of {@code params}. */
  static ECPoint multiply(ECParameterSpec params, BigInteger k) {
    if (!(params.getCurve().getField() instanceof ECFieldFp field)) {
      throw new IllegalArgumentException("only prime-field curves are supported");
    }
    BigInteger p = field.getP();
    BigInteger a = params.getCurve().getA();
    ECPoint result = ECPoint.POINT_INFINITY;
    ECPoint addend = params.getGenerator();
    for (int i = 0; i < k.bitLength(); i++) {
      if (k.testBit(i)) {
        result = add(result, addend, a, p);
      }
      addend = add(addend, addend, a, p);
    }
    return result;
  }

  private static ECPoint add(ECPoint q, ECPoint r, BigInteger a, BigInteger p) {
    if (q.equals(ECPoint.POINT_INFINITY)) {
      return r;
    }
    if (r.equals(ECPoint.POINT_INFINITY)) {
      return q;
    }
    BigInteger lambda;
    if (q.getAffineX().equals(r.getAffineX())) {
      if (q.getAffineY().add(r.getAffineY()).mod(p).signum() == 0) {
        return ECPoint.POINT_INFINITY;
      }
      lambda = THREE.multiply(q.getAffineX().pow(2)).add(a)
          .multiply(TWO.multiply(q.getAffineY()).modInverse(p)).mod(p);
    } else {
      lambda = r.getAffineY().subtract(q.getAffineY())
          .multiply(r.getAffineX().subtract(q.getAffineX()).modInverse(p)).mod(p);
    }
    BigInteger x = lambda.pow(2).subtract(q.getAffineX()).subtract(r.getAffineX()).mod(p);
    BigInteger y = lambda.multiply(q.getAffineX().subtract(x)).subtract(q.getAffineY()).mod(p);
    return new ECPoint(x, y);
  }
}
