package org.privadapt.privacy.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.RunJournal;

/**
 * Writes the plans of one or more ledgers as one transaction: all of them or none (issue 46).
 *
 * <ol>
 *   <li><b>Before any lock</b> (nothing on disk changes): no two plans name the same ledger file; each ledger's path
 *       can hold a file (not a directory, its nearest existing ancestor a writable directory); each plan fits its
 *       budget as the ledger reads now.</li>
 *   <li><b>Locks</b>, one ledger after the other in the order of their paths (so that two runs charging the same two
 *       ledgers cannot deadlock). A lock that cannot be taken releases those taken, leaving nothing behind.</li>
 *   <li><b>Re-check</b> under the locks: each ledger re-read (another process may have charged it), each plan
 *       composed with what is recorded; a refusal writes nothing.</li>
 *   <li><b>Prove every write possible</b>: each new ledger written in full to a temporary file beside it and forced to
 *       disk, and each existing ledger linked (or copied) to a backup beside it. A full disk, an immutable or
 *       read-only directory fails here, before any ledger changes.</li>
 *   <li><b>Renames</b>, in order. Each is one atomic rename within a directory where a file was just created. Should
 *       one still fail, the renames already made are undone (the backup renamed back, a new ledger removed), so the
 *       ledgers are left as they were; only a second failure during that undo (or a crash between the renames) can
 *       leave the first ledgers charged and the others not: they then overstate, never understate, what was
 *       released.</li>
 * </ol>
 * The temporary files and backups are removed and the locks released in every case.
 */
final class LedgerCommit {
    /** Test seam: called at each step with its name and the ledger it concerns; may throw to simulate a fault. */
    interface FaultHook {
        void at(String step, Path ledger) throws IOException;
    }

    static volatile FaultHook faults = (step, ledger) -> { };

    /** One ledger's part of the transaction. */
    record Share(BudgetLedger ledger, List<BudgetLedger.Charge> plan) {
    }

    private LedgerCommit() {
    }

    static List<List<BudgetLedger.Entry>> commit(List<Share> shares) throws BudgetExceededException, BudgetLedger.LedgerException {
        List<Share> order = new ArrayList<>();
        for (Share s : shares) {
            if (!s.plan().isEmpty()) {
                order.add(s);
            }
        }
        order.sort(Comparator.comparing(s -> s.ledger().file().toString()));
        requireDistinct(order);
        for (Share s : order) {
            requireWritable(s.ledger().file());
            s.ledger().check(s.plan()); // refused here, nothing is locked or created
        }
        List<LedgerLock> locks = new ArrayList<>();
        List<Staged> staged = new ArrayList<>();
        List<List<BudgetLedger.Entry>> entries = new ArrayList<>();
        // a stop (Ctrl-C) waits for this step to end, and one that came first keeps it from starting
        RunJournal.Step step = RunJournal.enter("charge");
        try {
            for (Share s : order) {
                try {
                    faults.at("lock", s.ledger().file());
                    locks.add(LedgerLock.acquire(s.ledger().file()));
                } catch (IOException e) {
                    throw new BudgetLedger.LedgerException(s.ledger().file() + ": cannot lock ledger: " + e.getMessage()
                            + nothingCharged(order), e);
                }
            }
            List<BudgetLedger.Planned> planned = new ArrayList<>();
            for (Share s : order) {
                planned.add(s.ledger().plan(s.plan())); // re-read under the lock; throws BudgetExceededException
            }
            for (int k = 0; k < order.size(); k++) {
                Staged st = new Staged(order.get(k).ledger().file());
                staged.add(st);
                st.prepare(planned.get(k).bytes(), order);
            }
            for (int k = 0; k < staged.size(); k++) {
                try {
                    staged.get(k).install();
                } catch (IOException e) {
                    String undone = undo(staged, k);
                    throw new BudgetLedger.LedgerException(staged.get(k).file + ": cannot write ledger: " + e.getMessage()
                            + undone, e);
                }
            }
            for (Staged st : staged) {
                st.syncDirectory();
            }
            for (int k = 0; k < planned.size(); k++) {
                List<BudgetLedger.Entry> e = planned.get(k).entries();
                entries.add(e);
                RunJournal.charged(order.get(k).ledger().file() + ": '" + e.get(0).label() + "'"
                        + (e.size() > 1 ? " + " + (e.size() - 1) + " more" : "") + " (the ledger now stands at epsilon "
                        + String.format(java.util.Locale.ROOT, "%.6g", e.get(e.size() - 1).epsilonAfter()) + ")");
            }
        } finally {
            step.close();
            for (Staged st : staged) {
                st.cleanUp();
            }
            for (int k = locks.size() - 1; k >= 0; k--) {
                locks.get(k).close();
            }
        }
        // in the callers' order
        List<List<BudgetLedger.Entry>> out = new ArrayList<>();
        for (Share s : shares) {
            int k = order.indexOf(s);
            out.add(k < 0 ? List.of() : entries.get(k));
        }
        return out;
    }

    /** Writes one ledger's whole content atomically (the caller holds its lock): a new ledger's header. */
    static void writeOne(Path file, byte[] bytes) throws BudgetLedger.LedgerException {
        Staged st = new Staged(file);
        try {
            st.prepare(bytes, List.of());
            try {
                st.install();
            } catch (IOException e) {
                throw new BudgetLedger.LedgerException(file + ": cannot write ledger: " + e.getMessage(), e);
            }
            st.syncDirectory();
        } finally {
            st.cleanUp();
        }
    }

    private static String nothingCharged(List<Share> order) {
        return order.size() > 1 ? " (no ledger was charged)" : "";
    }

    private static void requireDistinct(List<Share> order) throws BudgetLedger.LedgerException {
        Set<Path> seen = new HashSet<>();
        for (Share s : order) {
            Path f = s.ledger().file();
            Path real = f;
            try {
                if (Files.exists(f)) {
                    real = f.toRealPath();
                }
            } catch (IOException ignored) {
                // compared by its normalised path
            }
            if (!seen.add(real)) {
                throw new BudgetLedger.LedgerException(f + ": the same ledger file is given for two parties; each party keeps "
                        + "a ledger of its own (no ledger was charged)");
            }
        }
    }

    /**
     * Refuses, before anything is locked or created, a ledger path that cannot hold a file: a directory, a path under
     * a regular file, or under a directory that is not writable (full disks and immutable directories are found only
     * when a write is tried: step 4).
     */
    static void requireWritable(Path file) throws BudgetLedger.LedgerException {
        if (Files.isDirectory(file)) {
            throw new BudgetLedger.LedgerException(file + ": is a directory, not a ledger file (nothing was charged)");
        }
        Path p = file.getParent();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p != null && !Files.isDirectory(p)) {
            throw new BudgetLedger.LedgerException(file + ": cannot create ledger: " + p + " is not a directory (nothing was charged)");
        }
        if (p != null && !Files.isWritable(p)) {
            throw new BudgetLedger.LedgerException(file + ": cannot write ledger: directory " + p + " is not writable"
                    + " (nothing was charged)");
        }
    }

    /** Undoes the renames of {@code staged[0..failed)}; says what it left. */
    private static String undo(List<Staged> staged, int failed) {
        List<Path> notUndone = new ArrayList<>();
        for (int k = failed - 1; k >= 0; k--) {
            try {
                staged.get(k).restore();
            } catch (IOException e) {
                notUndone.add(staged.get(k).file);
            }
        }
        if (notUndone.isEmpty()) {
            return staged.size() > 1 ? " (no ledger was charged)" : "";
        }
        return "; could not undo the charge already written to " + notUndone
                + " (that ledger overstates, never understates, what was released)";
    }

    /** One ledger's new content staged beside it. */
    private static final class Staged {
        final Path file;
        final Path dir;
        final String prefix;
        Path tmp;
        Path backup;
        boolean existed;
        boolean installed;

        Staged(Path file) {
            this.file = file;
            this.dir = file.getParent();
            this.prefix = "." + file.getFileName() + ".";
        }

        void prepare(byte[] bytes, List<Share> order) throws BudgetLedger.LedgerException {
            try {
                Files.createDirectories(dir);
                try (DirectoryStream<Path> stale = Files.newDirectoryStream(dir, p -> {
                    String n = p.getFileName().toString();
                    return n.startsWith(prefix) && (n.endsWith(".tmp") || n.endsWith(".bak"));
                })) {
                    for (Path p : stale) {
                        Files.deleteIfExists(p); // left by a writer that died; we hold the lock, so none is live
                    }
                }
                faults.at("write", file);
                tmp = Files.createTempFile(dir, prefix, ".tmp");
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                    ByteBuffer buf = ByteBuffer.wrap(bytes);
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    ch.force(true);
                }
                existed = Files.exists(file);
                if (existed) {
                    faults.at("backup", file);
                    backup = dir.resolve(prefix + Long.toHexString(System.nanoTime()) + ".bak");
                    try {
                        Files.createLink(backup, file);
                    } catch (UnsupportedOperationException | IOException e) {
                        Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            } catch (IOException e) {
                throw new BudgetLedger.LedgerException(file + ": cannot write ledger: " + e.getMessage() + nothingCharged(order), e);
            }
        }

        void install() throws IOException {
            faults.at("rename", file);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system cannot replace the ledger atomically", e);
            }
            tmp = null;
            installed = true;
        }

        void restore() throws IOException {
            faults.at("undo", file);
            if (existed) {
                Files.move(backup, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                backup = null;
            } else {
                Files.deleteIfExists(file);
            }
            installed = false;
        }

        void syncDirectory() {
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            } catch (IOException ignored) {
                // some file systems cannot sync a directory; the rename itself is atomic
            }
        }

        void cleanUp() {
            for (Path p : new Path[] {tmp, backup}) {
                if (p != null) {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException ignored) {
                        // a stale file is removed by the next writer
                    }
                }
            }
        }
    }
}
