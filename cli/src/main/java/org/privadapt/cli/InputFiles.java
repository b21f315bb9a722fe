package org.privadapt.cli;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.privadapt.data.DataException;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;

/**
 * The files a command reads and does not write (an artifact given with {@code --model} or {@code --release}, a ledger
 * to show): one that is missing, a directory or unreadable is a data error (exit code 3, README "Exit codes"), named
 * with the option that gave it, before anything is read, spent or written. What is wrong inside a file that is there
 * stays an invalid artifact or ledger (exit code 5).
 */
public final class InputFiles {
    private InputFiles() {
    }

    /**
     * The file, when it is a readable regular file.
     *
     * @param option the option or parameter that named it, e.g. {@code --model}
     * @throws DataException "FILE: no such file (--model)", "FILE: is a directory, not a file (--model)", ...
     */
    public static Path require(Path file, String option) throws DataException {
        if (!Files.exists(file)) {
            throw new DataException(file, null, "no such file (" + option + ")");
        }
        if (Files.isDirectory(file)) {
            throw new DataException(file, null, "is a directory, not a file (" + option + ")");
        }
        if (!Files.isReadable(file)) {
            throw new DataException(file, null, "file is not readable (permissions) (" + option + ")");
        }
        return file;
    }

    /** {@link Artifact#read} of a file checked by {@link #require} first. */
    public static Artifact artifact(Path file, String kind, String option) throws DataException, ArtifactException {
        return Artifact.read(require(file, option), kind);
    }

    /** True when {@code e} or one of its causes says a file does not exist (a ledger or artifact that went missing). */
    static boolean noSuchFile(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NoSuchFileException) {
                return true;
            }
        }
        return false;
    }
}
