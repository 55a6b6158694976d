/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.labels;

import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.LabelValidation;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.labels.LabelSelector.Operator;
import io.apiserver4j.core.labels.LabelSelector.Requirement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Lexer and recursive-descent parser for label selectors, following apimachinery's grammar,
 * token rules and error texts so that clients see the same BadRequest messages.
 */
final class LabelSelectorParser {
  private enum Tok {
    ERROR, END, CLOSE_PAR, COMMA, NOT, DOUBLE_EQUALS, EQUALS, GREATER, IDENT, IN, LESS, NOT_EQUALS,
    NOT_IN, OPEN_PAR
  }

  private record Item(Tok tok, String literal) {}

  private static final String BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

  private final String input;
  private int pos;
  private final List<Item> items = new ArrayList<>();
  private int position;

  LabelSelectorParser(String input) {
    this.input = input;
  }

  List<Requirement> parse() {
    scan();
    List<Requirement> reqs = new ArrayList<>();
    while (true) {
      Item look = lookahead(true);
      switch (look.tok) {
        case IDENT:
        case NOT:
          Requirement r;
          try {
            r = parseRequirement();
          } catch (ParseError e) {
            throw StatusErrors.badRequest("unable to parse requirement: " + e.getMessage());
          }
          reqs.add(r);
          Item next = consume(true);
          switch (next.tok) {
            case END:
              return reqs;
            case COMMA:
              Item after = lookahead(true);
              if (after.tok != Tok.IDENT && after.tok != Tok.NOT) {
                throw StatusErrors.badRequest(
                    "found '" + after.literal + "', expected: identifier after ','");
              }
              break;
            default:
              throw StatusErrors.badRequest(
                  "found '" + next.literal + "', expected: ',' or 'end of string'");
          }
          break;
        case END:
          return reqs;
        default:
          throw StatusErrors.badRequest(
              "found '" + look.literal + "', expected: !, identifier, or 'end of string'");
      }
    }
  }

  private static final class ParseError extends RuntimeException {
    ParseError(String message) {
      super(message, null, false, false);
    }
  }

  private Requirement parseRequirement() {
    Operator op = null;
    Item t = consume(true);
    if (t.tok == Tok.NOT) {
      op = Operator.DOES_NOT_EXIST;
      t = consume(true);
    }
    if (t.tok != Tok.IDENT) {
      throw new ParseError("found '" + t.literal + "', expected: identifier");
    }
    String key = t.literal;
    String keyError = validateKey(key, "");
    if (keyError != null) {
      throw new ParseError(keyError);
    }
    Tok next = lookahead(true).tok;
    if (next == Tok.END || next == Tok.COMMA) {
      if (op != Operator.DOES_NOT_EXIST) {
        op = Operator.EXISTS;
      }
    }
    if (op == Operator.EXISTS || op == Operator.DOES_NOT_EXIST) {
      return new Requirement(key, op, List.of());
    }
    op = parseOperator();
    TreeSet<String> values;
    if (op == Operator.IN || op == Operator.NOT_IN) {
      values = parseValues();
    } else {
      values = parseExactValue();
    }
    return newRequirement(key, op, new ArrayList<>(values));
  }

  /** Validates values as apimachinery's NewRequirement does (values sorted, errors aggregated). */
  private static Requirement newRequirement(String key, Operator op, List<String> values) {
    List<String> errors = new ArrayList<>();
    String valuesJson = jsonStrings(values);
    switch (op) {
      case IN:
      case NOT_IN:
        if (values.isEmpty()) {
          errors.add("values: Invalid value: " + valuesJson
              + ": for 'in', 'notin' operators, values set can't be empty");
        }
        break;
      case EQUALS:
      case DOUBLE_EQUALS:
      case NOT_EQUALS:
        if (values.size() != 1) {
          errors.add("values: Invalid value: " + valuesJson
              + ": exact-match compatibility requires one single value");
        }
        break;
      case GREATER_THAN:
      case LESS_THAN:
        if (values.size() != 1) {
          errors.add("values: Invalid value: " + valuesJson
              + ": for 'Gt', 'Lt' operators, exactly one value is required");
        }
        for (int i = 0; i < values.size(); i++) {
          if (LabelSelector.parseGoInt(values.get(i)) == null) {
            errors.add("values[" + i + "]: Invalid value: " + GoStrings.quote(values.get(i))
                + ": for 'Gt', 'Lt' operators, the value must be an integer");
          }
        }
        break;
      default:
        break;
    }
    for (int i = 0; i < values.size(); i++) {
      String err = validateValue(key, values.get(i), "values[" + i + "]");
      if (err != null) {
        errors.add(err);
      }
    }
    if (errors.size() == 1) {
      throw new ParseError(errors.get(0));
    } else if (!errors.isEmpty()) {
      throw new ParseError("[" + String.join(", ", errors) + "]");
    }
    return new Requirement(key, op, values);
  }

  private Operator parseOperator() {
    Item t = consume(false);
    switch (t.tok) {
      case IN: return Operator.IN;
      case EQUALS: return Operator.EQUALS;
      case DOUBLE_EQUALS: return Operator.DOUBLE_EQUALS;
      case GREATER: return Operator.GREATER_THAN;
      case LESS: return Operator.LESS_THAN;
      case NOT_IN: return Operator.NOT_IN;
      case NOT_EQUALS: return Operator.NOT_EQUALS;
      default:
        throw new ParseError("found '" + t.literal + "', expected: " + BINARY_OPERATORS);
    }
  }

  private TreeSet<String> parseValues() {
    Item t = consume(true);
    if (t.tok != Tok.OPEN_PAR) {
      throw new ParseError("found '" + t.literal + "' expected: '('");
    }
    Item look = lookahead(true);
    switch (look.tok) {
      case IDENT:
      case COMMA:
        TreeSet<String> s = parseIdentifiersList();
        if (consume(true).tok != Tok.CLOSE_PAR) {
          throw new ParseError("found '" + look.literal + "', expected: ')'");
        }
        return s;
      case CLOSE_PAR:
        consume(true);
        TreeSet<String> empty = new TreeSet<>();
        empty.add("");
        return empty;
      default:
        throw new ParseError("found '" + look.literal + "', expected: ',', ')' or identifier");
    }
  }

  private TreeSet<String> parseIdentifiersList() {
    TreeSet<String> s = new TreeSet<>();
    while (true) {
      Item t = consume(true);
      switch (t.tok) {
        case IDENT:
          s.add(t.literal);
          Item look = lookahead(true);
          if (look.tok == Tok.COMMA) {
            continue;
          } else if (look.tok == Tok.CLOSE_PAR) {
            return s;
          }
          throw new ParseError("found '" + look.literal + "', expected: ',' or ')'");
        case COMMA:
          if (s.isEmpty()) {
            s.add("");
          }
          Tok next = lookahead(true).tok;
          if (next == Tok.CLOSE_PAR) {
            s.add("");
            return s;
          }
          if (next == Tok.COMMA) {
            s.add("");
          }
          break;
        default:
          throw new ParseError("found '" + t.literal + "', expected: ',', or identifier");
      }
    }
  }

  private TreeSet<String> parseExactValue() {
    TreeSet<String> s = new TreeSet<>();
    Tok look = lookahead(true).tok;
    if (look == Tok.END || look == Tok.COMMA) {
      s.add("");
      return s;
    }
    Item t = consume(true);
    if (t.tok == Tok.IDENT) {
      s.add(t.literal);
      return s;
    }
    throw new ParseError("found '" + t.literal + "', expected: identifier");
  }

  // --- validation (apimachinery IsQualifiedName / IsValidLabelValue) ---

  static String validateKey(String key, String path) {
    List<String> errs = LabelValidation.qualifiedName(key);
    return errs.isEmpty() ? null : invalid(path, key, errs);
  }

  static String validateValue(String key, String value, String path) {
    List<String> errs = LabelValidation.labelValue(value);
    return errs.isEmpty() ? null : invalid(path + "[" + key + "]", value, errs);
  }

  private static String invalid(String path, String value, List<String> errs) {
    return path + ": Invalid value: " + GoStrings.quote(value) + ": " + String.join("; ", errs);
  }

  private static String jsonStrings(List<String> values) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(io.apiserver4j.core.Json.quote(values.get(i)));
    }
    return b.append(']').toString();
  }

  // --- lexer ---

  private Item lookahead(boolean valuesContext) {
    return adjust(items.get(position), valuesContext);
  }

  private Item consume(boolean valuesContext) {
    return adjust(items.get(position++), valuesContext);
  }

  private static Item adjust(Item item, boolean valuesContext) {
    // in a value position the keywords "in"/"notin" are ordinary identifiers
    if (valuesContext && (item.tok == Tok.IN || item.tok == Tok.NOT_IN)) {
      return new Item(Tok.IDENT, item.literal);
    }
    return item;
  }

  private void scan() {
    while (true) {
      Item item = lex();
      items.add(item);
      if (item.tok == Tok.END) {
        return;
      }
    }
  }

  private Item lex() {
    while (pos < input.length() && isWhitespace(input.charAt(pos))) {
      pos++;
    }
    if (pos >= input.length()) {
      return new Item(Tok.END, "");
    }
    if (isSpecial(input.charAt(pos))) {
      return scanSpecial();
    }
    int start = pos;
    while (pos < input.length() && !isSpecial(input.charAt(pos))
        && !isWhitespace(input.charAt(pos))) {
      pos++;
    }
    String s = input.substring(start, pos);
    Tok keyword = keyword(s);
    return new Item(keyword == null ? Tok.IDENT : keyword, s);
  }

  private Item scanSpecial() {
    StringBuilder buffer = new StringBuilder();
    Item last = null;
    while (pos < input.length() && isSpecial(input.charAt(pos))) {
      buffer.append(input.charAt(pos));
      pos++;
      Tok t = keyword(buffer.toString());
      if (t != null) {
        last = new Item(t, buffer.toString());
      } else if (last != null) {
        pos--;
        break;
      }
    }
    if (last == null) {
      return new Item(Tok.ERROR, "error expected: keyword found '" + buffer + "'");
    }
    return last;
  }

  private static Tok keyword(String s) {
    switch (s) {
      case ")": return Tok.CLOSE_PAR;
      case ",": return Tok.COMMA;
      case "!": return Tok.NOT;
      case "==": return Tok.DOUBLE_EQUALS;
      case "=": return Tok.EQUALS;
      case ">": return Tok.GREATER;
      case "in": return Tok.IN;
      case "<": return Tok.LESS;
      case "!=": return Tok.NOT_EQUALS;
      case "notin": return Tok.NOT_IN;
      case "(": return Tok.OPEN_PAR;
      default: return null;
    }
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private static boolean isSpecial(char c) {
    return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
  }
}
