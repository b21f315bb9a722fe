package org.privadapt.methods.artifacts;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * Each party's Ed25519 key pair, with which it signs the artifacts it writes and its partner checks where they came
 * from (docs/privacy/signing.md). The JDK's Ed25519 ({@code KeyPairGenerator}/{@code Signature} "Ed25519", JDK 15+);
 * nothing else. Files are text:
 *
 * <pre>
 * party.pub:  privadapt-ed25519-public BASE64(X.509 SubjectPublicKeyInfo) SHA256:FINGERPRINT
 * party.key:  # comment
 *             privadapt-ed25519-private BASE64(PKCS#8 PrivateKeyInfo)
 *             privadapt-ed25519-public BASE64(X.509) SHA256:FINGERPRINT
 * </pre>
 * The private key file holds its public half too (the JDK does not derive one from the other), so a signer knows the
 * fingerprint it signs under; reading it checks that the two halves belong together. The fingerprint is OpenSSH's
 * form: {@code SHA256:} and the unpadded base64 of the SHA-256 of the X.509 encoding; when a file states one it must
 * match its key.
 */
public final class ArtifactKeys {
    /** The algorithm name stored in a signature block. */
    public static final String ALGORITHM = "ed25519";
    public static final String PUBLIC_HEADER = "privadapt-ed25519-public";
    public static final String PRIVATE_HEADER = "privadapt-ed25519-private";
    private static final int MAX_FILE = 64 * 1024;
    private static final String JCA = "Ed25519";

    private ArtifactKeys() {
    }

    /** A partner's public key, as read from its file. */
    public record Verifier(PublicKey key, String fingerprint, Path file) {
    }

    /** A party's own private key with its public half, as read from its file. */
    public record Signer(PrivateKey key, PublicKey publicKey, String fingerprint, Path file) {
    }

    /** A fresh key pair from the JDK's default secure random source. */
    public static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance(JCA).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no Ed25519 (JDK 15 or newer needed)", e);
        }
    }

    /** {@code SHA256:} and the unpadded base64 of the SHA-256 of the key's X.509 encoding (as {@code ssh-keygen -l}). */
    public static String fingerprint(PublicKey key) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(h);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The public key file's text: one line. */
    public static String publicText(PublicKey key) {
        return PUBLIC_HEADER + " " + Base64.getEncoder().encodeToString(key.getEncoded()) + " " + fingerprint(key) + "\n";
    }

    /** The private key file's text: a comment, the private key, its public half. */
    public static String privateText(KeyPair pair) {
        return "# privadapt Ed25519 private key: keep it secret (owner-only; never send it). Its public half (last line) is "
                + "also in the .pub file.\n" + PRIVATE_HEADER + " " + Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded())
                + "\n" + publicText(pair.getPublic());
    }

    /** Signs {@code bytes}; Ed25519 is deterministic, so the same bytes and key give the same signature. */
    public static byte[] sign(Signer signer, byte[] bytes) {
        try {
            Signature s = Signature.getInstance(JCA);
            s.initSign(signer.key());
            s.update(bytes);
            return s.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** True when {@code signature} is the key's signature of {@code bytes}; false for any malformed signature. */
    public static boolean verify(PublicKey key, byte[] bytes, byte[] signature) {
        try {
            Signature s = Signature.getInstance(JCA);
            s.initVerify(key);
            s.update(bytes);
            return s.verify(signature);
        } catch (java.security.SignatureException | java.security.InvalidKeyException e) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads a public key file (a partner's {@code .pub}).
     *
     * @throws KeyFileException MISSING, MALFORMED, or WRONG_KIND for a private key file
     */
    public static Verifier readPublic(Path file) throws KeyFileException {
        List<String[]> lines = records(file);
        if (find(lines, PRIVATE_HEADER) != null) {
            throw new KeyFileException(KeyFileException.Reason.WRONG_KIND, file, "is a private key file; give the partner's "
                    + "public key (the .pub file written beside its private key by privadapt keys generate)");
        }
        PublicKey key = publicKey(file, lines, true);
        return new Verifier(key, fingerprint(key), file);
    }

    /**
     * Reads a private key file (the party's own, written by {@link #privateText}); checks that its two halves belong
     * together.
     *
     * @throws KeyFileException MISSING, MALFORMED, or WRONG_KIND for a public key file
     */
    public static Signer readPrivate(Path file) throws KeyFileException {
        List<String[]> lines = records(file);
        String[] priv = find(lines, PRIVATE_HEADER);
        if (priv == null) {
            if (find(lines, PUBLIC_HEADER) != null) {
                throw new KeyFileException(KeyFileException.Reason.WRONG_KIND, file, "is a public key file; signing takes "
                        + "your own private key file (privadapt keys generate --out FILE)");
            }
            throw malformed(file, "no '" + PRIVATE_HEADER + " ...' line");
        }
        if (priv.length != 2) {
            throw malformed(file, "the '" + PRIVATE_HEADER + "' line holds " + (priv.length - 1) + " fields, expected 1");
        }
        PrivateKey key;
        try {
            key = KeyFactory.getInstance(JCA).generatePrivate(new PKCS8EncodedKeySpec(base64(file, priv[1], "private key")));
        } catch (java.security.spec.InvalidKeySpecException e) {
            throw malformed(file, "the private key is not an Ed25519 PKCS#8 key (" + e.getMessage() + ")");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        PublicKey pub = publicKey(file, lines, false);
        Signer s = new Signer(key, pub, fingerprint(pub), file);
        byte[] probe = "privadapt key pair check".getBytes(StandardCharsets.US_ASCII);
        if (!verify(pub, probe, sign(s, probe))) {
            throw malformed(file, "its private key and its public key line do not belong together");
        }
        return s;
    }

    /** The public key of a file's public line (exactly one), its stated fingerprint checked. */
    private static PublicKey publicKey(Path file, List<String[]> lines, boolean publicFile) throws KeyFileException {
        String[] pub = find(lines, PUBLIC_HEADER);
        if (pub == null) {
            throw malformed(file, "no '" + PUBLIC_HEADER + " ...' line" + (publicFile ? "" : " (the private key's public half)"));
        }
        if (lines.stream().filter(l -> l[0].equals(PUBLIC_HEADER)).count() > 1) {
            throw malformed(file, "more than one '" + PUBLIC_HEADER + "' line");
        }
        if (pub.length < 2 || pub.length > 3) {
            throw malformed(file, "the '" + PUBLIC_HEADER + "' line holds " + (pub.length - 1) + " fields, expected the key and its fingerprint");
        }
        PublicKey key;
        try {
            key = KeyFactory.getInstance(JCA).generatePublic(new X509EncodedKeySpec(base64(file, pub[1], "public key")));
        } catch (java.security.spec.InvalidKeySpecException e) {
            throw malformed(file, "the public key is not an Ed25519 X.509 key (" + e.getMessage() + ")");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        if (pub.length == 3 && !pub[2].equals(fingerprint(key))) {
            throw malformed(file, "the fingerprint " + pub[2] + " it states is not its key's (" + fingerprint(key) + "): the file was edited");
        }
        return key;
    }

    /** The file's non-blank, non-comment lines, split on white space; checks size and the known headers. */
    private static List<String[]> records(Path file) throws KeyFileException {
        if (!Files.exists(file)) {
            throw new KeyFileException(KeyFileException.Reason.MISSING, file, "no such file");
        }
        if (Files.isDirectory(file)) {
            throw new KeyFileException(KeyFileException.Reason.MISSING, file, "is a directory, not a key file");
        }
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_FILE) {
                throw malformed(file, "larger than " + MAX_FILE / 1024 + " KiB, not a key file");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new KeyFileException(KeyFileException.Reason.MISSING, file, "cannot read (" + e.getClass().getSimpleName() + ")", e);
        }
        List<String[]> out = new ArrayList<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\\R")) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split("\\s+");
            if (!f[0].equals(PUBLIC_HEADER) && !f[0].equals(PRIVATE_HEADER)) {
                throw malformed(file, "not a privadapt key file (expected '" + PUBLIC_HEADER + " ...' or '" + PRIVATE_HEADER
                        + " ...'; OpenSSH and PEM keys are not read: make a pair with privadapt keys generate)");
            }
            out.add(f);
        }
        if (out.isEmpty()) {
            throw malformed(file, "empty, not a privadapt key file");
        }
        if (out.stream().filter(l -> l[0].equals(PRIVATE_HEADER)).count() > 1) {
            throw malformed(file, "more than one '" + PRIVATE_HEADER + "' line");
        }
        return out;
    }

    private static String[] find(List<String[]> lines, String header) {
        return lines.stream().filter(l -> l[0].equals(header)).findFirst().orElse(null);
    }

    private static byte[] base64(Path file, String text, String what) throws KeyFileException {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw malformed(file, "the " + what + " is not valid base64");
        }
    }

    private static KeyFileException malformed(Path file, String problem) {
        return new KeyFileException(KeyFileException.Reason.MALFORMED, file, problem);
    }

    /**
     * Writes a new file atomically, refusing to replace one: a temporary file in the same directory (created
     * owner-only, then given {@code permissions} on a POSIX file system), written and forced, then hard-linked to its
     * name, which fails if the name exists (renamed without replacing where links are not supported).
     *
     * @param permissions e.g. "rw-------" (ignored where the file system has no POSIX permissions)
     * @throws FileAlreadyExistsException if {@code file} exists (nothing is written)
     */
    public static void writeNew(Path file, byte[] content, String permissions) throws IOException {
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        boolean posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
        Path tmp = posix ? Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp", PosixFilePermissions.asFileAttribute(ownerOnly))
                : Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
        org.privadapt.privacy.RunJournal.temporary(tmp);
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            if (posix) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(permissions));
            }
            try {
                Files.createLink(target, tmp);
            } catch (FileAlreadyExistsException e) {
                throw e;
            } catch (UnsupportedOperationException | IOException e) {
                Files.move(tmp, target); // no REPLACE_EXISTING: refuses an existing name (checked, not atomically)
            }
            org.privadapt.privacy.RunJournal.wrote(target);
        } finally {
            Files.deleteIfExists(tmp);
            org.privadapt.privacy.RunJournal.temporaryDone(tmp);
        }
    }
}
