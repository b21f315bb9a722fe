package org.privadapt.cli.commands;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.InputFiles;
import org.privadapt.cli.PartyOptions;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.Json;
import org.privadapt.methods.artifacts.ArtifactKeys;
import org.privadapt.methods.artifacts.KeyFileException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt keys ...}: a party's Ed25519 key pair, with which it signs the artifacts it writes
 * ({@code --sign-key}) and its partner checks their origin ({@code --verify-key}); docs/privacy/signing.md.
 */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = {"A party's Ed25519 key pair: it signs the artifacts it writes (--sign-key on target release, source "
            + "train, source release) and its partner checks where they came from (--verify-key with the .pub file on "
            + "source train, target predict, target adapt, inspect). Not part of differential privacy: it protects the "
            + "protocol against a third party (docs/privacy/signing.md)."},
        subcommands = {KeysCommand.Generate.class, KeysCommand.Show.class})
public final class KeysCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        // a command group without a subcommand is a usage error: the usage goes to standard error, exit 2
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** {@code privadapt keys generate}. */
    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = {"Make a new key pair: the private key file (owner-only, mode 0600; keep it, never send it) and "
                    + "the public key file (send it to your partner by a channel it trusts, and compare the fingerprint "
                    + "with it, e.g. by phone). Neither file is ever replaced: an existing one is refused.",
                "Example: privadapt keys generate --out target.key   (writes target.key and target.pub)"})
    public static final class Generate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--out", required = true, paramLabel = "FILE",
                description = "The private key file to create (owner-only; refused if it exists).")
        Path out;

        @Option(names = "--public-out", paramLabel = "FILE",
                description = "The public key file to create (refused if it exists; default: --out with .key replaced by .pub, "
                        + "else --out followed by .pub).")
        Path publicOut;

        @Option(names = "--json", description = "Print a JSON summary on standard output.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            Path pub = publicOut != null ? publicOut : defaultPublic(out);
            if (pub.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize())) {
                throw new UsageException("--public-out " + pub + ": the same file as --out; the two halves go to two files");
            }
            refuseExisting(out, "--out");
            refuseExisting(pub, "--public-out");
            PartyOptions.requireWritable(out, "--out");
            PartyOptions.requireWritable(pub, "--public-out");
            KeyPair pair = ArtifactKeys.generate();
            String fp = ArtifactKeys.fingerprint(pair.getPublic());
            try {
                ArtifactKeys.writeNew(out, ArtifactKeys.privateText(pair).getBytes(StandardCharsets.US_ASCII), "rw-------");
            } catch (FileAlreadyExistsException e) {
                throw exists(out, "--out");
            }
            try {
                ArtifactKeys.writeNew(pub, ArtifactKeys.publicText(pair.getPublic()).getBytes(StandardCharsets.US_ASCII), "rw-r--r--");
            } catch (IOException e) {
                Files.deleteIfExists(out); // written a moment ago by this command: no half pair is left
                if (e instanceof FileAlreadyExistsException) {
                    throw exists(pub, "--public-out");
                }
                throw e;
            }
            PrintWriter w = spec.commandLine().getOut();
            if (json) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("private_key", out.toString());
                s.put("public_key", pub.toString());
                s.put("algorithm", ArtifactKeys.ALGORITHM);
                s.put("fingerprint", fp);
                w.println(Json.write(s));
            } else {
                w.printf(Locale.ROOT, "private key: %s (owner-only; keep it, never send it; sign with --sign-key %s)%n", out, out);
                w.printf(Locale.ROOT, "public key:  %s (send it to your partner, who checks with --verify-key %s)%n", pub,
                        pub.getFileName());
                w.printf(Locale.ROOT, "fingerprint: %s (%s; compare it with your partner's 'privadapt keys show' by another channel)%n",
                        fp, ArtifactKeys.ALGORITHM);
            }
            return ExitCodes.OK;
        }

        static Path defaultPublic(Path privateFile) {
            String name = privateFile.getFileName() == null ? "" : privateFile.getFileName().toString();
            String pubName = name.endsWith(".key") ? name.substring(0, name.length() - 4) + ".pub" : name + ".pub";
            return privateFile.resolveSibling(pubName);
        }

        private static void refuseExisting(Path f, String option) {
            if (Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
                throw exists(f, option);
            }
        }

        private static UsageException exists(Path f, String option) {
            return new UsageException(option + " " + f + ": exists; keys generate never replaces a key file (move it away or "
                    + "give another path)");
        }
    }

    /** {@code privadapt keys show}. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"Show a key file's kind and fingerprint (a private key file shows its public half's): the "
                    + "fingerprint 'inspect' prints for an artifact signed with it.",
                "Example: privadapt keys show source.pub"})
    public static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "FILE", description = "A public (.pub) or private key file.")
        Path file;

        @Option(names = "--json", description = "Print a JSON summary on standard output.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            InputFiles.require(file, "keys show FILE");
            String fp;
            boolean isPrivate;
            try {
                fp = ArtifactKeys.readPublic(file).fingerprint();
                isPrivate = false;
            } catch (KeyFileException e) {
                if (e.reason() != KeyFileException.Reason.WRONG_KIND) {
                    throw KeyOptions.refusal(e, "keys show FILE");
                }
                try {
                    fp = ArtifactKeys.readPrivate(file).fingerprint();
                } catch (KeyFileException e2) {
                    throw KeyOptions.refusal(e2, "keys show FILE");
                }
                isPrivate = true;
            }
            boolean open = isPrivate && KeyOptions.readableByOthers(file);
            PrintWriter w = spec.commandLine().getOut();
            if (json) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("file", file.toString());
                s.put("kind", isPrivate ? "private" : "public");
                s.put("algorithm", ArtifactKeys.ALGORITHM);
                s.put("fingerprint", fp);
                if (isPrivate) {
                    s.put("owner_only", !open);
                }
                w.println(Json.write(s));
            } else {
                w.printf(Locale.ROOT, "%s: privadapt %s %s key%s%n", file, ArtifactKeys.ALGORITHM, isPrivate ? "private" : "public",
                        !isPrivate ? "" : open ? " (WARNING: group or others can read it; chmod 600 " + file + ")" : " (owner-only)");
                w.printf(Locale.ROOT, "fingerprint: %s%n", fp);
            }
            return ExitCodes.OK;
        }
    }
}
