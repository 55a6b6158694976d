package io.apiserver4j.apiserver.internal;

/** Go's text helpers that kube-apiserver's messages depend on: {@code %q} and {@code unicode.IsPrint}. */
public final class GoText {
  private GoText() {}

  /**
   * Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII
   * space; no other spaces, no control, format, surrogate or unassigned code points.
   */
  public static boolean isPrint(int cp) {
    if (cp == ' ') {
      return true;
    }
    switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER:
      case Character.LOWERCASE_LETTER:
      case Character.TITLECASE_LETTER:
      case Character.MODIFIER_LETTER:
      case Character.OTHER_LETTER:
      case Character.NON_SPACING_MARK:
      case Character.ENCLOSING_MARK:
      case Character.COMBINING_SPACING_MARK:
      case Character.DECIMAL_DIGIT_NUMBER:
      case Character.LETTER_NUMBER:
      case Character.OTHER_NUMBER:
      case Character.CONNECTOR_PUNCTUATION:
      case Character.DASH_PUNCTUATION:
      case Character.START_PUNCTUATION:
      case Character.END_PUNCTUATION:
      case Character.INITIAL_QUOTE_PUNCTUATION:
      case Character.FINAL_QUOTE_PUNCTUATION:
      case Character.OTHER_PUNCTUATION:
      case Character.MATH_SYMBOL:
      case Character.CURRENCY_SYMBOL:
      case Character.MODIFIER_SYMBOL:
      case Character.OTHER_SYMBOL:
        return true;
      default:
        return false;
    }
  }

  /** Go's {@code strconv.Quote} ({@code %q} of a string). */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      switch (cp) {
        case '"':
          sb.append("\\\"");
          continue;
        case '\\':
          sb.append("\\\\");
          continue;
        case 0x07:
          sb.append("\\a");
          continue;
        case '\b':
          sb.append("\\b");
          continue;
        case '\f':
          sb.append("\\f");
          continue;
        case '\n':
          sb.append("\\n");
          continue;
        case '\r':
          sb.append("\\r");
          continue;
        case '\t':
          sb.append("\\t");
          continue;
        case 0x0b:
          sb.append("\\v");
          continue;
        default:
          break;
      }
      if (Character.isSurrogate((char) cp) && Character.charCount(cp) == 1) {
        sb.append("\\ufffd");
      } else if (isPrint(cp)) {
        sb.appendCodePoint(cp);
      } else if (cp < 0x80) {
        sb.append(String.format("\\x%02x", cp));
      } else if (cp < 0x10000) {
        sb.append(String.format("\\u%04x", cp));
      } else {
        sb.append(String.format("\\U%08x", cp));
      }
    }
    return sb.append('"').toString();
  }
}
