/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the requests Jetty rejects before the API handler sees them as Go's {@code net/http}
 * server under kube-apiserver does: a plain-text {@code <code> <reason>} body and the connection
 * closed. Go has no 414: a request line or headers beyond its {@code MaxHeaderBytes} are both
 * {@code 431 Request Header Fields Too Large}.
 */
public final class GoErrorHandler extends ErrorHandler {
  private static final HttpField TEXT =
      new HttpField(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");

  /** Go's status for a Jetty status. */
  static int goStatus(int status) {
    return status == HttpStatus.URI_TOO_LONG_414 ? HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431
        : status;
  }

  /** Go's body: the code and the standard reason phrase. */
  static String goBody(int status) {
    String reason = HttpStatus.getMessage(status);
    return status + " " + reason;
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    int go = goStatus(status);
    fields.put(TEXT);
    fields.put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    return ByteBuffer.wrap(goBody(go).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int go = goStatus(response.getStatus());
    if (request.getAttribute(ERROR_STATUS) instanceof Integer s) {
      go = goStatus(s);
    }
    response.setStatus(go);
    response.getHeaders().put(TEXT);
    if (go == HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431 || go == HttpStatus.BAD_REQUEST_400) {
      response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    }
    byte[] body = goBody(go).getBytes(StandardCharsets.UTF_8);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
