package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.privadapt.cli.InputFiles;
import org.privadapt.cli.UsageException;
import org.privadapt.data.DataException;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.artifacts.ArtifactKeys;
import org.privadapt.methods.artifacts.KeyFileException;
import picocli.CommandLine.Option;

/**
 * The two sides of artifact signing on the command line (docs/privacy/signing.md): {@code --sign-key} on the commands
 * that write an artifact, {@code --verify-key} on those that read the partner's. Both keys are read before anything
 * else is read, spent or written. A missing, unreadable or malformed key file is a data error (exit 3) naming the file;
 * the other half of a pair where one is expected (a private key to {@code --verify-key}) is a usage error (exit 2); an
 * artifact that does not verify is an invalid artifact (exit 5).
 */
public final class KeyOptions {
    private KeyOptions() {
    }

    /** {@code --sign-key FILE}: the party's own private key; what the command writes is signed with it. */
    public static final class Sign {
        @Option(names = "--sign-key", paramLabel = "FILE",
                description = "Sign the artifact with your private key (made by 'privadapt keys generate'); your partner checks "
                        + "it with your public key (--verify-key YOUR.pub). Docs: docs/privacy/signing.md.")
        Path file;

        private ArtifactKeys.Signer signer;

        /**
         * Reads the key (first, before the command reads or spends anything); warns when group or others may read it.
         *
         * @return the signer, or null without {@code --sign-key}
         */
        ArtifactKeys.Signer load(PrintWriter err) throws DataException {
            if (file == null) {
                return null;
            }
            InputFiles.require(file, "--sign-key");
            try {
                signer = ArtifactKeys.readPrivate(file);
            } catch (KeyFileException e) {
                throw refusal(e, "--sign-key");
            }
            if (readableByOthers(file)) {
                err.println("privadapt: warning: --sign-key " + file + " can be read by group or others; a private key should "
                        + "be owner-only (chmod 600 " + file + ")");
            }
            return signer;
        }

        /** The artifact, to be signed when written (unchanged without {@code --sign-key}). */
        Artifact sign(Artifact a) {
            return a.signedWith(signer);
        }

        /** The fingerprint of the key that signs, or null. */
        String fingerprint() {
            return signer == null ? null : signer.fingerprint();
        }

        /** "by SHA256:... (ed25519, --sign-key FILE)" for a command's text summary, or null when unsigned. */
        String signed() {
            return signer == null ? null : "by " + signer.fingerprint() + " (" + ArtifactKeys.ALGORITHM + ", --sign-key " + file + ")";
        }
    }

    /** {@code --verify-key FILE}: the partner's public key; the artifact received from it must carry its signature. */
    public static final class Verify {
        @Option(names = "--verify-key", paramLabel = "FILE",
                description = "Your partner's public key (its .pub file, received by a channel you trust): the artifact it "
                        + "sent is refused (exit 5) unless it is signed by this key and unchanged since; without it no "
                        + "signature is checked. Docs: docs/privacy/signing.md.")
        Path file;

        private ArtifactKeys.Verifier verifier;

        /**
         * Reads the key (first, before the command reads or spends anything).
         *
         * @return the verifier, or null without {@code --verify-key}
         */
        ArtifactKeys.Verifier load() throws DataException {
            if (file == null) {
                return null;
            }
            InputFiles.require(file, "--verify-key");
            try {
                verifier = ArtifactKeys.readPublic(file);
            } catch (KeyFileException e) {
                throw refusal(e, "--verify-key");
            }
            return verifier;
        }

        /**
         * The artifact, when it verifies (or when no {@code --verify-key} was given).
         *
         * @throws ArtifactException unsigned, signed by another key, or changed since it was signed
         */
        Artifact check(Artifact a, Path artifactFile) throws ArtifactException {
            return verifier == null ? a : a.verifiedBy(verifier, artifactFile.toString());
        }

        /** The fingerprint of the key the artifact was verified against, or null without --verify-key. */
        String fingerprint() {
            return verifier == null ? null : verifier.fingerprint();
        }

        /** "signed by SHA256:... (ed25519), verified with --verify-key FILE" for a text summary, or null. */
        String verified() {
            return verifier == null ? null : "signed by " + verifier.fingerprint() + " (" + ArtifactKeys.ALGORITHM
                    + "), verified with --verify-key " + file;
        }
    }

    /** A key file that cannot be used, as the exception the command's exit code follows from. */
    static DataException refusal(KeyFileException e, String option) {
        if (e.reason() == KeyFileException.Reason.WRONG_KIND) {
            throw new UsageException(option + " " + e.getMessage());
        }
        return new DataException(e.file(), null, e.problem() + " (" + option + ")", e);
    }

    static boolean readableByOthers(Path f) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(f);
            return p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ);
        } catch (UnsupportedOperationException | java.io.IOException e) {
            return false;
        }
    }
}
