package dev.cannonade.sample;

/** An expected failure that becomes a JSON error response: {"error": message}. */
public final class ApiException extends RuntimeException {
  public final int status;
  public final String headerName;
  public final String headerValue;

  public ApiException(int status, String message) {
    this(status, message, null, null);
  }

  public ApiException(int status, String message, String headerName, String headerValue) {
    super(message, null, false, false);
    this.status = status;
    this.headerName = headerName;
    this.headerValue = headerValue;
  }
}
