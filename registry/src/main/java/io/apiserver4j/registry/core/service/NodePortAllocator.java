/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import io.apiserver4j.apiserver.Allocation;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.apimachinery.validation.ServiceRanges;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.StoredObject;
import java.math.BigInteger;
import java.util.Base64;
import java.util.Collection;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * kube's node port allocator ({@code pkg/registry/core/service/portallocator} over
 * {@code allocator/storage}): the allocated ports are a bitmap (bit {@code i} is port
 * {@code min + i}) kept in one stored {@code RangeAllocation} object, as kube keeps it under
 * {@code /registry/ranges/servicenodeports}, and every claim or release is a compare-and-swap of
 * that object retried on conflict, so servers sharing the store never hand out one port. A
 * dynamic port is searched from a random offset of the upper band, then of the lower band
 * ({@code min(max(16, size/32), 128)} ports kept for requested ones, KEP-3668). Thread-safe.
 */
final class NodePortAllocator {
  /** Where the bitmap is stored. */
  static final ObjectKey KEY = new ObjectKey("", "ranges", "", "servicenodeports");

  /** kube's {@code ErrAllocated}. */
  static final String ERR_ALLOCATED = "provided port is already allocated";
  /** kube's {@code ErrFull}. */
  static final String ERR_FULL = "range is full";

  private final int min;
  private final int max;
  private final int offset;

  NodePortAllocator(int[] range) {
    this.min = range[0];
    this.max = range[1];
    this.offset = rangeOffset(max - min + 1);
  }

  /** kube's portallocator {@code calculateRangeOffset}: {@code min(max(16, size/32), 128)}. */
  static int rangeOffset(int size) {
    if (size <= 16) {
      return 0;
    }
    return Math.min(Math.max(16, size / 32), 128);
  }

  String range() {
    return min + "-" + max;
  }

  int first() {
    return min;
  }

  /** kube's {@code ErrNotInRange} text when {@code port} is outside the range. */
  Optional<String> notInRange(long port) {
    if (port >= min && port <= max) {
      return Optional.empty();
    }
    return Optional.of("provided port is not in the valid range. The range of valid ports is "
        + range());
  }

  /**
   * Claims {@code port}.
   *
   * @return empty when claimed, else kube's error text
   */
  Optional<String> allocate(long port, Allocation allocation) {
    Optional<String> range = notInRange(port);
    if (range.isPresent()) {
      return range;
    }
    String[] error = new String[1];
    update(allocation, bits -> {
      error[0] = null;
      int at = (int) (port - min);
      if (bits.testBit(at)) {
        error[0] = ERR_ALLOCATED;
        return bits;
      }
      return bits.setBit(at);
    });
    return Optional.ofNullable(error[0]);
  }

  /**
   * Claims a free port (kube's random scan with offset).
   *
   * @return the port, or empty when the range is full
   */
  Optional<Long> allocateNext(Allocation allocation) {
    long[] got = new long[1];
    update(allocation, bits -> {
      got[0] = 0;
      int size = max - min + 1;
      int upper = size - offset;
      int start = allocation.random().nextInt(upper);
      for (int i = 0; i < upper; i++) {
        int at = offset + (start + i) % upper;
        if (!bits.testBit(at)) {
          got[0] = min + at;
          return bits.setBit(at);
        }
      }
      if (offset > 0) {
        start = allocation.random().nextInt(offset);
        for (int i = 0; i < offset; i++) {
          int at = (start + i) % offset;
          if (!bits.testBit(at)) {
            got[0] = min + at;
            return bits.setBit(at);
          }
        }
      }
      return bits;
    });
    return got[0] == 0 ? Optional.empty() : Optional.of(got[0]);
  }

  /** Gives the ports back; ports outside the range or not held are ignored. */
  void release(Collection<Long> ports, Allocation allocation) {
    if (ports.isEmpty()) {
      return;
    }
    update(allocation, bits -> {
      BigInteger r = bits;
      for (long p : ports) {
        if (p >= min && p <= max) {
          r = r.clearBit((int) (p - min));
        }
      }
      return r;
    });
  }

  /** The ports the stored bitmap holds, with the stored object's resourceVersion. */
  Snapshot snapshot(Allocation allocation) {
    Optional<StoredObject> stored = allocation.storage().get(KEY);
    return new Snapshot(stored.map(o -> ports(o.object())).orElseGet(TreeSet::new),
        stored.map(StoredObject::resourceVersion).orElse(0L));
  }

  /**
   * Stores {@code ports} if the bitmap is still at {@code snapshot}'s version (kube's
   * {@code CreateOrUpdate} of the repair).
   *
   * @return whether it was stored; false when another writer got in between
   */
  boolean replace(Snapshot snapshot, Collection<Long> ports, Allocation allocation) {
    BigInteger bits = BigInteger.ZERO;
    for (long p : ports) {
      if (p >= min && p <= max) {
        bits = bits.setBit((int) (p - min));
      }
    }
    try {
      if (snapshot.resourceVersion() == 0) {
        allocation.storage().create(KEY, object(bits));
      } else {
        allocation.storage().update(KEY, object(bits), snapshot.resourceVersion());
      }
      return true;
    } catch (AlreadyExistsException | NotFoundException
        | io.apiserver4j.core.errors.ConflictException e) {
      return false;
    }
  }

  /** The stored ports at a version. */
  record Snapshot(TreeSet<Long> ports, long resourceVersion) {}

  /** A compare-and-swap of the bitmap, retried on conflict; creates it when missing. */
  private void update(Allocation allocation, UnaryOperator<BigInteger> change) {
    while (true) {
      Optional<StoredObject> current = allocation.storage().get(KEY);
      if (current.isEmpty()) {
        BigInteger bits = change.apply(BigInteger.ZERO);
        try {
          allocation.storage().create(KEY, object(bits));
          return;
        } catch (AlreadyExistsException e) {
          continue; // another server created it first
        }
      }
      try {
        allocation.storage().guaranteedUpdate(KEY, Preconditions.none(),
            stored -> object(change.apply(bits(stored))));
        return;
      } catch (NotFoundException e) {
        // deleted meanwhile: start again
      }
    }
  }

  // the stored bitmap in this range; ports of another stored range (a changed flag) move over
  private BigInteger bits(MapValue stored) {
    String storedRange = str(stored, "range");
    if (storedRange.equals(range())) {
      return decode(str(stored, "data"));
    }
    BigInteger r = BigInteger.ZERO;
    for (long p : ports(stored)) {
      if (p >= min && p <= max) {
        r = r.setBit((int) (p - min));
      }
    }
    return r;
  }

  private static TreeSet<Long> ports(MapValue stored) {
    TreeSet<Long> out = new TreeSet<>();
    int[] r = ServiceRanges.ports(str(stored, "range"));
    if (r == null) {
      return out;
    }
    BigInteger bits = decode(str(stored, "data"));
    for (int i = 0; i < bits.bitLength(); i++) {
      if (bits.testBit(i)) {
        out.add((long) r[0] + i);
      }
    }
    return out;
  }

  private MapValue object(BigInteger bits) {
    // kube's snapshot data: the bitmap's big-endian bytes (big.Int.Bytes), base64 in JSON
    byte[] bytes = bits.toByteArray();
    if (bytes.length > 1 && bytes[0] == 0) {
      bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
    }
    if (bits.signum() == 0) {
      bytes = new byte[0];
    }
    return MapValue.builder()
        .put("apiVersion", Value.of("v1"))
        .put("kind", Value.of("RangeAllocation"))
        .put("metadata", MapValue.builder().put("name", Value.of(KEY.name())).build())
        .put("range", Value.of(range()))
        .put("data", Value.of(Base64.getEncoder().encodeToString(bytes)))
        .build();
  }

  private static BigInteger decode(String data) {
    try {
      byte[] bytes = Base64.getDecoder().decode(data);
      return bytes.length == 0 ? BigInteger.ZERO : new BigInteger(1, bytes);
    } catch (IllegalArgumentException e) {
      ServiceAllocator.LOG.warn("the stored node port bitmap is no base64; starting empty", e);
      return BigInteger.ZERO;
    }
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }
}
