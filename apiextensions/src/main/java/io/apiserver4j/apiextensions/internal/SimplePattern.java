/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * RE2's unanchored search ({@code regexp.MatchString}, re2j's {@code find}) for the patterns
 * schemas usually carry — an optional {@code ^}, a sequence of ASCII literals, escapes,
 * {@code .}, {@code \d \w \s} and bracket classes, each with an optional greedy quantifier
 * ({@code ? * + {n} {n,} {n,m}}), an optional {@code $} — as a position automaton run over the
 * code points, in time linear in the input like RE2 itself, several times faster than re2j's
 * general NFA. Anything else (groups, alternation, flags, non-ASCII, up to 63 positions) is not
 * planned and re2j matches it. Immutable and thread-safe.
 */
final class SimplePattern {
  private enum Repeat { ONE, OPTIONAL, STAR, PLUS }

  /** One position: the set of code points it matches and how often it may repeat. */
  private record Position(long low, long high, boolean negated, boolean dot, Repeat repeat) {
    boolean matches(int cp) {
      if (dot) {
        return cp != '\n';
      }
      boolean in = cp < 64 ? (low >>> cp & 1) != 0
          : cp < 128 && (high >>> (cp - 64) & 1) != 0;
      return in != negated;
    }

    boolean skippable() {
      return repeat == Repeat.OPTIONAL || repeat == Repeat.STAR;
    }

    boolean loops() {
      return repeat == Repeat.STAR || repeat == Repeat.PLUS;
    }
  }

  private final Position[] positions;
  private final boolean anchoredStart;
  private final boolean anchoredEnd;

  private SimplePattern(Position[] positions, boolean anchoredStart, boolean anchoredEnd) {
    this.positions = positions;
    this.anchoredStart = anchoredStart;
    this.anchoredEnd = anchoredEnd;
  }

  /** The matcher of {@code pattern} (already accepted by RE2), or empty outside the subset. */
  static Optional<SimplePattern> of(String pattern) {
    try {
      return Optional.of(new Parser(pattern).parse());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The result of {@link #find} when the input has a lone surrogate: re2j decides. */
  static final int UNDECIDED = -1;

  /**
   * Whether some substring of {@code s} matches, as RE2's unanchored search: 1 when one does,
   * 0 when none does, {@link #UNDECIDED} for input that is not well-formed UTF-16.
   */
  int find(String s) {
    int k = positions.length;
    long accept = 1L << k;
    long start = closure(1L);
    long states = start;
    if (!anchoredEnd && (states & accept) != 0) {
      return 1;
    }
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
        return UNDECIDED;
      }
      i += Character.charCount(cp);
      long next = 0;
      for (long rest = states & ~accept; rest != 0; rest &= rest - 1) {
        int p = Long.numberOfTrailingZeros(rest);
        Position pos = positions[p];
        if (pos.matches(cp)) {
          next |= 1L << (p + 1);
          if (pos.loops()) {
            next |= 1L << p;
          }
        }
      }
      states = closure(next);
      if (!anchoredStart) {
        states |= start;
      }
      if (!anchoredEnd && (states & accept) != 0) {
        return 1;
      }
      if (states == 0) {
        return 0;
      }
    }
    return (states & accept) != 0 ? 1 : 0;
  }

  /** Adds the states reachable by skipping optional positions. */
  private long closure(long states) {
    long out = states;
    for (int p = 0; p < positions.length; p++) {
      if ((out >>> p & 1) != 0 && positions[p].skippable()) {
        out |= 1L << (p + 1);
      }
    }
    return out;
  }

  private static final class Parser {
    private static final String META = "\\.+*?()|[]{}^$";
    private final String p;
    private int i;
    private final List<Position> out = new ArrayList<>();

    Parser(String p) {
      this.p = p;
    }

    private static IllegalArgumentException unsupported() {
      return new IllegalArgumentException("outside the planned subset");
    }

    SimplePattern parse() {
      boolean start = false;
      boolean end = false;
      if (i < p.length() && p.charAt(i) == '^') {
        start = true;
        i++;
      }
      int stop = p.length();
      if (stop > i && p.charAt(stop - 1) == '$' && !escaped(stop - 1)) {
        end = true;
        stop--;
      }
      while (i < stop) {
        long[] set = new long[2];
        boolean negated = false;
        boolean dot = false;
        char c = p.charAt(i);
        if (c == '.') {
          dot = true;
          i++;
        } else if (c == '[') {
          negated = bracket(set, stop);
        } else if (c == '\\') {
          escape(set, false);
        } else if (c < 128 && c >= ' ' && META.indexOf(c) < 0) {
          add(set, c);
          i++;
        } else {
          throw unsupported();
        }
        quantified(set, negated, dot, stop);
      }
      if (out.size() > 63) {
        throw unsupported();
      }
      return new SimplePattern(out.toArray(new Position[0]), start, end);
    }

    private boolean escaped(int at) {
      int backslashes = 0;
      for (int j = at - 1; j >= 0 && p.charAt(j) == '\\'; j--) {
        backslashes++;
      }
      return backslashes % 2 == 1;
    }

    private void quantified(long[] set, boolean negated, boolean dot, int stop) {
      Repeat r = Repeat.ONE;
      int min = 1;
      int max = 1;
      boolean counted = false;
      if (i < stop) {
        switch (p.charAt(i)) {
          case '?' -> {
            r = Repeat.OPTIONAL;
            i++;
          }
          case '*' -> {
            r = Repeat.STAR;
            i++;
          }
          case '+' -> {
            r = Repeat.PLUS;
            i++;
          }
          case '{' -> {
            int close = p.indexOf('}', i);
            if (close < 0 || close >= stop) {
              throw unsupported();
            }
            String body = p.substring(i + 1, close);
            int comma = body.indexOf(',');
            try {
              if (comma < 0) {
                min = Integer.parseInt(body);
                max = min;
              } else {
                min = Integer.parseInt(body.substring(0, comma));
                max = comma == body.length() - 1 ? -1
                    : Integer.parseInt(body.substring(comma + 1));
              }
            } catch (NumberFormatException e) {
              throw unsupported();
            }
            if (min < 0 || min > 63 || max > 63 || (max >= 0 && max < min)) {
              throw unsupported();
            }
            counted = true;
            i = close + 1;
          }
          default -> { }
        }
      }
      // a non-greedy or possessive suffix, or a quantified quantifier
      if (i < stop && "?*+{".indexOf(p.charAt(i)) >= 0) {
        throw unsupported();
      }
      if (!counted) {
        out.add(new Position(set[0], set[1], negated, dot, r));
        return;
      }
      for (int n = 0; n < min; n++) {
        out.add(new Position(set[0], set[1], negated, dot, Repeat.ONE));
      }
      if (max < 0) {
        out.add(new Position(set[0], set[1], negated, dot, Repeat.STAR));
      } else {
        for (int n = min; n < max; n++) {
          out.add(new Position(set[0], set[1], negated, dot, Repeat.OPTIONAL));
        }
      }
      if (out.size() > 63) {
        throw unsupported();
      }
    }

    /** Parses {@code [...]} into {@code set}; returns whether it is negated. */
    private boolean bracket(long[] set, int stop) {
      i++;
      boolean negated = false;
      if (i < stop && p.charAt(i) == '^') {
        negated = true;
        i++;
      }
      if (i < stop && p.charAt(i) == ']') {
        throw unsupported(); // a leading ']' is a literal in RE2: left to re2j
      }
      while (true) {
        if (i >= stop) {
          throw unsupported();
        }
        char c = p.charAt(i);
        if (c == ']') {
          i++;
          return negated;
        }
        int from;
        if (c == '\\') {
          if (i + 1 < stop && "dws".indexOf(p.charAt(i + 1)) >= 0) {
            escape(set, true);
            continue;
          }
          from = escapedLiteral();
        } else if (c == '[' || c >= 128 || c < ' ') {
          throw unsupported();
        } else {
          from = c;
          i++;
        }
        if (i + 1 < stop && p.charAt(i) == '-' && p.charAt(i + 1) != ']') {
          i++;
          char d = p.charAt(i);
          int to;
          if (d == '\\') {
            to = escapedLiteral();
          } else if (d == '[' || d >= 128 || d < ' ') {
            throw unsupported();
          } else {
            to = d;
            i++;
          }
          if (to < from) {
            throw unsupported();
          }
          for (int x = from; x <= to; x++) {
            add(set, x);
          }
        } else {
          add(set, from);
        }
      }
    }

    /** {@code \d \w \s} or an escaped literal, outside or inside a class. */
    private void escape(long[] set, boolean inClass) {
      if (i + 1 >= p.length()) {
        throw unsupported();
      }
      char e = p.charAt(i + 1);
      switch (e) {
        case 'd' -> {
          range(set, '0', '9');
          i += 2;
        }
        case 'w' -> {
          range(set, '0', '9');
          range(set, 'a', 'z');
          range(set, 'A', 'Z');
          add(set, '_');
          i += 2;
        }
        case 's' -> {
          // RE2's \s is [\t\n\f\r ]
          add(set, '\t');
          add(set, '\n');
          add(set, '\f');
          add(set, '\r');
          add(set, ' ');
          i += 2;
        }
        default -> add(set, escapedLiteral());
      }
    }

    /** An escaped punctuation character or {@code \n \t \r}. */
    private int escapedLiteral() {
      if (i + 1 >= p.length()) {
        throw unsupported();
      }
      char e = p.charAt(i + 1);
      i += 2;
      return switch (e) {
        case 'n' -> '\n';
        case 't' -> '\t';
        case 'r' -> '\r';
        default -> {
          if (e < 128 && e > ' ' && !Character.isLetterOrDigit(e)) {
            yield e;
          }
          throw unsupported();
        }
      };
    }

    private static void range(long[] set, int from, int to) {
      for (int x = from; x <= to; x++) {
        add(set, x);
      }
    }

    private static void add(long[] set, int c) {
      if (c < 64) {
        set[0] |= 1L << c;
      } else {
        set[1] |= 1L << (c - 64);
      }
    }
  }
}
