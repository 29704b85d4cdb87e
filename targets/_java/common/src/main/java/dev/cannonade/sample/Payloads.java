package dev.cannonade.sample;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * POST /payload, as targets/_node/request.ts: counts and hashes the body as it streams in; a JSON
 * body (content-type application/json) is also parsed, and 400 if it is not JSON.
 */
final class Payloads {
  private Payloads() {}

  static Map<String, Object> receive(Exchange ex, int limit, ObjectMapper mapper) {
    String type = ex.header("content-type");
    boolean json = type != null && type.toLowerCase(java.util.Locale.ROOT).matches("^application/json\\b.*");
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    ByteArrayOutputStream kept = json ? new ByteArrayOutputStream() : null;
    long bytes = 0;
    byte[] buf = new byte[64 * 1024];
    try (InputStream in = ex.body()) {
      for (int n; (n = in.read(buf)) > 0; ) {
        bytes += n;
        if (bytes > limit) throw new ApiException(413, "request body larger than " + limit + " bytes");
        sha.update(buf, 0, n);
        if (kept != null) kept.write(buf, 0, n);
      }
    } catch (IOException e) {
      throw new ApiException(400, "could not read the request body");
    }
    if (kept != null) {
      try {
        if (mapper.readTree(kept.toByteArray()) == null) throw new IOException("empty");
      } catch (IOException e) {
        throw new ApiException(400, "request body must be valid JSON (content-type is application/json)");
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("bytes", bytes);
    out.put("sha256", Passwords.hex(sha.digest()));
    out.put("kind", json ? "json" : "text");
    return out;
  }
}
