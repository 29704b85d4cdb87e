package dev.cannonade.sample;

import java.util.ArrayList;
import java.util.List;

/** A complete response: status, headers (Server-Timing and the correlation id included) and body. */
public final class Reply {
  public final int status;
  public final String contentType;
  public final byte[] body;
  public final int length;
  /** Extra headers as name/value pairs, in order. */
  public final List<String[]> headers = new ArrayList<>(4);
  /** More Server-Timing entries (the hops of a chain), or null. */
  public String timing;

  public Reply(int status, String contentType, byte[] body, int length) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
    this.length = length;
  }

  public Reply(int status, String contentType, byte[] body) {
    this(status, contentType, body, body.length);
  }

  public Reply header(String name, String value) {
    headers.add(new String[] {name, value});
    return this;
  }
}
