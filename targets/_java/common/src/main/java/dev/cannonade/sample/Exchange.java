package dev.cannonade.sample;

import java.io.IOException;
import java.io.InputStream;

/** What the API needs from one HTTP request; each runtime adapts its own request type to it. */
public interface Exchange {
  String method();

  /** The raw (not percent-decoded) path, without the query string. */
  String path();

  /** The raw query string without '?', or null. */
  String rawQuery();

  /** A request header by case-insensitive name, or null. */
  String header(String name);

  InputStream body() throws IOException;
}
