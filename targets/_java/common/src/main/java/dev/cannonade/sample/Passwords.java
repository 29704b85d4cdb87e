package dev.cannonade.sample;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * PBKDF2-HMAC-SHA256, stored as {@code pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>}: the same
 * format and parameters as the Node stacks (crypto.pbkdf2), so either runtime verifies the other's.
 */
public final class Passwords {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HexFormat HEX = HexFormat.of();

  private Passwords() {}

  public static byte[] pbkdf2(String password, byte[] salt, int iterations, int bytes) {
    try {
      // SunJCE encodes the password chars as UTF-8, like Node's crypto.pbkdf2 with a string.
      PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, bytes * 8);
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String hash(String password, int iterations) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    byte[] hash = pbkdf2(password, salt, iterations, 32);
    return "pbkdf2_sha256$" + iterations + "$" + HEX.formatHex(salt) + "$" + HEX.formatHex(hash);
  }

  public static boolean verify(String password, String stored) {
    String[] parts = stored.split("\\$");
    if (parts.length != 4 || !"pbkdf2_sha256".equals(parts[0])) return false;
    try {
      byte[] expected = HEX.parseHex(parts[3]);
      byte[] actual = pbkdf2(password, HEX.parseHex(parts[2]), Integer.parseInt(parts[1]), expected.length);
      return MessageDigest.isEqual(actual, expected);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  public static String token() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return HEX.formatHex(bytes);
  }

  public static String hex(byte[] bytes) {
    return HEX.formatHex(bytes);
  }
}
