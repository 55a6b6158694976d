/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A minimal blocking HTTP/1.1 client: one keep-alive connection, one request at a time, what a
 * load generator needs and no more (no TLS, redirects or pooling). The load benchmarks run their
 * clients in the server's JVM, on the same few cores; {@code java.net.http} spends well over
 * 100 µs of CPU per request (selector thread, executor hand-offs), which the server then does
 * not get. With this client the CPU goes to the server, as with kube's Go load generators in
 * their own processes. Not thread-safe: one per benchmark thread.
 */
final class LoopbackHttpClient implements AutoCloseable {
  /** A response: status code and body. */
  record Response(int status, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final URI base;
  private final String host;
  private Socket socket;
  private OutputStream out;
  private InputStream in;
  private final ByteArrayOutputStream request = new ByteArrayOutputStream(1024);
  private final StringBuilder line = new StringBuilder(128);

  LoopbackHttpClient(URI base) {
    this.base = base;
    this.host = base.getHost() + ":" + base.getPort();
  }

  Response get(String pathAndQuery) {
    return send("GET", pathAndQuery, null, null);
  }

  Response send(String method, String pathAndQuery, String contentType, byte[] body) {
    try {
      connect();
      request.reset();
      StringBuilder h = new StringBuilder(256).append(method).append(' ').append(pathAndQuery)
          .append(" HTTP/1.1\r\nHost: ").append(host).append("\r\nAccept: application/json\r\n");
      if (body != null) {
        h.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ")
            .append(body.length).append("\r\n");
      }
      h.append("\r\n");
      request.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) {
        request.write(body);
      }
      request.writeTo(out);
      out.flush();
      return read();
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(method + " " + base.resolve(pathAndQuery), e);
    }
  }

  private void connect() throws IOException {
    if (socket == null) {
      socket = new Socket(InetAddress.getByName(base.getHost()), base.getPort());
      socket.setTcpNoDelay(true);
      out = socket.getOutputStream();
      in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    }
  }

  private Response read() throws IOException {
    String statusLine = readLine();
    // "HTTP/1.1 200 OK"
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean close = false;
    for (String header = readLine(); !header.isEmpty(); header = readLine()) {
      int colon = header.indexOf(':');
      String name = header.substring(0, colon).trim();
      String value = header.substring(colon + 1).trim();
      if (name.equalsIgnoreCase("Content-Length")) {
        length = Long.parseLong(value);
      } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
        chunked = value.equalsIgnoreCase("chunked");
      } else if (name.equalsIgnoreCase("Connection")) {
        close = value.equalsIgnoreCase("close");
      }
    }
    byte[] body;
    if (chunked) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      for (int size = Integer.parseInt(readLine().trim(), 16); size > 0;
          size = Integer.parseInt(readLine().trim(), 16)) {
        b.write(in.readNBytes(size));
        readLine();
      }
      readLine();
      body = b.toByteArray();
    } else if (length >= 0) {
      body = in.readNBytes((int) length);
      if (body.length != length) {
        throw new IOException("connection closed in the body");
      }
    } else {
      body = in.readAllBytes();
      close = true;
    }
    if (close) {
      close();
    }
    return new Response(status, body);
  }

  private String readLine() throws IOException {
    line.setLength(0);
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new IOException("connection closed");
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
      socket = null;
    }
  }
}
