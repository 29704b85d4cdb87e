package dev.cannonade.sample;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The certificate of a stack started with TLS=on, made at start-up: keytool (the JRE's own)
 * generates an EC P-256 key and a self-signed certificate for 127.0.0.1 and localhost into a
 * PKCS#12 file in a private temporary folder, which is read into memory and deleted at once. The
 * Node stacks make the same kind of certificate with openssl (targets/_node/listen.ts). No key is
 * kept in the repository or an image.
 */
public final class Tls {
  public static final String ALIAS = "app";

  /** A key store holding the key and certificate under ALIAS, and the password of both. */
  public record Identity(KeyStore keyStore, String password) {}

  private Tls() {}

  public static Identity selfSigned() throws Exception {
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    String password = HexFormat.of().formatHex(secret);
    Path dir = Files.createTempDirectory("cannonade-tls");
    Path file = dir.resolve("app.p12");
    try {
      Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
      ProcessBuilder p =
          new ProcessBuilder(
                  List.of(
                      keytool.toString(), "-genkeypair", "-alias", ALIAS, "-keyalg", "EC",
                      "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                      "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "30",
                      "-storetype", "PKCS12", "-keystore", file.toString(),
                      "-storepass:env", "CANNONADE_KEY_PASSWORD", "-keypass:env", "CANNONADE_KEY_PASSWORD"))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      // The password goes by environment, never on a command line another user's `ps` shows.
      p.environment().put("CANNONADE_KEY_PASSWORD", password);
      Process run = p.start();
      if (!run.waitFor(60, TimeUnit.SECONDS) || run.exitValue() != 0) {
        run.destroyForcibly();
        throw new IllegalStateException("keytool could not make the TLS certificate");
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(file)) {
        store.load(in, password.toCharArray());
      }
      return new Identity(store, password);
    } finally {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    }
  }
}
