/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import com.google.re2j.Pattern;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Set;

/**
 * The string formats kube-apiserver validates in custom resources (apiextensions-apiserver's
 * supported formats at compatibility version 1.36, checked as go-openapi's {@code strfmt} does);
 * other formats are ignored, as kube strips them from the schema.
 */
final class Formats {
  private static final Set<String> SUPPORTED = Set.of("bsonobjectid", "uri", "email", "hostname",
      "ipv4", "ipv6", "cidr", "mac", "uuid", "uuid3", "uuid4", "uuid5", "isbn", "isbn10",
      "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte", "password", "date",
      "duration", "datetime", "k8sshortname", "k8slongname");

  private static final Pattern UUID = Pattern.compile(
      "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
  private static final Pattern UUID3 = Pattern.compile(
      "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
  private static final Pattern UUID4 = Pattern.compile(
      "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
  private static final Pattern UUID5 = Pattern.compile(
      "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
  private static final Pattern HOSTNAME = Pattern.compile(
      "^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|"
      + "([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)"
      + "(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$");
  private static final Pattern EMAIL = Pattern.compile("^[^@\\s<>]+@[^@\\s<>]+$");
  private static final Pattern MAC = Pattern.compile(
      "^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$|^([0-9A-Fa-f]{2}[:-]){19}[0-9A-Fa-f]{2}$"
      + "|^([0-9A-Fa-f]{4}\\.){2}[0-9A-Fa-f]{4}$");
  private static final Pattern HEXCOLOR = Pattern.compile("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
  private static final Pattern RGBCOLOR = Pattern.compile(
      "^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d"
      + "|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$");
  private static final Pattern SSN = Pattern.compile("^\\d{3}[- ]?\\d{2}[- ]?\\d{4}$");
  private static final Pattern ISBN10 = Pattern.compile("^(?:[0-9]{9}X|[0-9]{10})$");
  private static final Pattern ISBN13 = Pattern.compile("^(?:[0-9]{13})$");
  private static final Pattern CREDITCARD = Pattern.compile(
      "^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}"
      + "|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$");
  private static final Pattern BSON = Pattern.compile("^[0-9a-fA-F]{24}$");
  private static final Pattern DURATION = Pattern.compile(
      "^(([+-]?\\d+(\\.\\d*)?|[+-]?\\.\\d+)(ns|us|µs|ms|s|m|h))+$|^[0-9]+\\s*(ns|us|µs|ms|s|m|h"
      + "|nanos?|nanoseconds?|micros?|microseconds?|millis?|milliseconds?|seconds?|minutes?|hours?"
      + "|days?|weeks?)$|^0$");
  private static final Pattern DNS1123_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(
      "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");

  private Formats() {}

  static boolean supported(String format) {
    return SUPPORTED.contains(format.replace("-", ""));
  }

  static boolean valid(String format, String s) {
    switch (format.replace("-", "")) {
      case "password":
        return true;
      case "uuid":
        return UUID.matches(s);
      case "uuid3":
        return UUID3.matches(s);
      case "uuid4":
        return UUID4.matches(s);
      case "uuid5":
        return UUID5.matches(s);
      case "hostname":
        return s.length() <= 255 && HOSTNAME.matches(s);
      case "email":
        return EMAIL.matches(s);
      case "mac":
        return MAC.matches(s);
      case "hexcolor":
        return HEXCOLOR.matches(s);
      case "rgbcolor":
        return RGBCOLOR.matches(s);
      case "ssn":
        return SSN.matches(s);
      case "isbn10":
        return ISBN10.matches(s.replaceAll("[\\s-]", ""));
      case "isbn13":
        return ISBN13.matches(s.replaceAll("[\\s-]", ""));
      case "isbn":
        String digits = s.replaceAll("[\\s-]", "");
        return ISBN10.matches(digits) || ISBN13.matches(digits);
      case "creditcard":
        return CREDITCARD.matches(s.replaceAll("[^0-9]", ""));
      case "bsonobjectid":
        return BSON.matches(s);
      case "duration":
        return DURATION.matches(s);
      case "k8sshortname":
        return s.length() <= 63 && DNS1123_LABEL.matches(s);
      case "k8slongname":
        return s.length() <= 253 && DNS1123_SUBDOMAIN.matches(s);
      case "ipv4":
        return ipv4(s);
      case "ipv6":
        return s.contains(":") && ipv6(s);
      case "cidr":
        return cidr(s);
      case "byte":
        if (s.length() % 4 != 0 || !s.matches("[A-Za-z0-9+/]*={0,2}")) {
          return false;
        }
        try {
          Base64.getDecoder().decode(s);
          return true;
        } catch (IllegalArgumentException e) {
          return false;
        }
      case "date":
        try {
          LocalDate.parse(s);
          return true;
        } catch (DateTimeParseException e) {
          return false;
        }
      case "datetime":
        return dateTime(s);
      case "uri":
        return uri(s);
      default:
        return true;
    }
  }

  static boolean ipv4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)
          || Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }

  static boolean ipv6(String s) {
    if (s.contains("%") || s.startsWith("[")) {
      return false;
    }
    try {
      return java.net.InetAddress.getByName(s) != null && !s.isEmpty()
          && s.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.');
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  static boolean cidr(String s) {
    int slash = s.indexOf('/');
    if (slash < 0) {
      return false;
    }
    String ip = s.substring(0, slash);
    String bits = s.substring(slash + 1);
    if (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(Character::isDigit)) {
      return false;
    }
    int n = Integer.parseInt(bits);
    if (ipv4(ip)) {
      return n <= 32;
    }
    return ip.contains(":") && ipv6(ip) && n <= 128;
  }

  private static boolean dateTime(String s) {
    String t = s;
    if (t.length() > 10 && (t.charAt(10) == 't' || t.charAt(10) == ' ')) {
      t = t.substring(0, 10) + "T" + t.substring(11);
    }
    if (t.endsWith("z")) {
      t = t.substring(0, t.length() - 1) + "Z";
    }
    try {
      OffsetDateTime.parse(t);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static boolean uri(String s) {
    // Go's url.ParseRequestURI: an absolute URI or an absolute path.
    try {
      URI u = new URI(s);
      return u.isAbsolute() || s.startsWith("/");
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
