package org.privadapt.privacy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What this process has let out so far (ledger charges, output files renamed into place) and what it has half-made
 * (temporary files), so that an interrupted run (Ctrl-C, TERM) can stop cleanly and say what happened (issue 46).
 *
 * <p>Every ledger write and every group of output renames runs inside {@link #enter(String)} ... {@link Step#close()}. When
 * the process is told to stop, {@link #closeForExit} closes the journal: it waits for the step in flight, if any, to
 * finish (a charge is written whole or not at all, a set of outputs renamed whole), and from then on {@link #enter(String)}
 * never returns: a thread about to charge or to write an output waits for the exit instead. The temporary files still
 * listed are removed. So a stop before the charge spends nothing; a stop after it says what was spent and written.
 *
 * <p>For tests of the interruption path, the environment variable {@code PRIVADAPT_TEST_HOLD} set to {@code charge}
 * or {@code output} makes the first such step print one line to standard error and wait there until the process is
 * stopped (it holds nothing and releases nothing; it only makes the moment of the signal certain).
 */
public final class RunJournal {
    private static final Object LOCK = new Object();
    private static boolean closed;
    private static int inFlight;
    private static final List<String> charges = new ArrayList<>();
    private static final List<Path> written = new ArrayList<>();
    private static final Set<Path> temporaries = new LinkedHashSet<>();
    private static final String HOLD = System.getenv("PRIVADAPT_TEST_HOLD");

    private RunJournal() {
    }

    /** One step that lets something out: close it when done, whether it succeeded or not. */
    public static final class Step implements AutoCloseable {
        private boolean open = true;

        private Step() {
        }

        @Override
        public void close() {
            synchronized (LOCK) {
                if (open) {
                    open = false;
                    inFlight--;
                    LOCK.notifyAll();
                }
            }
        }
    }

    /**
     * Starts a step that charges a ledger ({@code kind} "charge") or renames outputs into place ("output"); blocks for
     * good once the process is stopping.
     */
    public static Step enter(String kind) {
        if (kind.equals(HOLD)) {
            holdForTest(kind);
        }
        synchronized (LOCK) {
            while (closed) {
                waitUninterruptibly(); // the process is exiting: this step never starts
            }
            inFlight++;
            return new Step();
        }
    }

    private static void holdForTest(String kind) {
        System.err.println("privadapt: PRIVADAPT_TEST_HOLD: waiting before the first " + kind + " until the process is stopped");
        System.err.flush();
        synchronized (LOCK) {
            while (true) {
                waitUninterruptibly();
            }
        }
    }

    private static void waitUninterruptibly() {
        try {
            LOCK.wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records a charge written to a ledger (one line: the ledger, the party, what and the epsilon now). */
    public static void charged(String description) {
        synchronized (LOCK) {
            charges.add(description);
        }
    }

    /** Records an output file renamed into place. */
    public static void wrote(Path file) {
        synchronized (LOCK) {
            written.add(file);
        }
    }

    /** A temporary file being written: removed if the process stops before {@link #temporaryDone}. */
    public static void temporary(Path file) {
        synchronized (LOCK) {
            temporaries.add(file);
        }
    }

    public static void temporaryDone(Path file) {
        synchronized (LOCK) {
            temporaries.remove(file);
        }
    }

    /** What was let out before the journal closed. */
    public record Summary(List<String> charges, List<Path> written) {
        /** One line for the user. */
        public String describe() {
            String spent = charges.isEmpty() ? "no ledger was charged" : "charged: " + String.join("; ", charges);
            String files = written.isEmpty() ? "no output was written"
                    : "written: " + String.join(", ", written.stream().map(Path::toString).toList()) + " (no other output)";
            return spent + "; " + files;
        }
    }

    /**
     * Closes the journal for the process's exit: waits up to {@code waitMillis} for the step in flight to finish, removes
     * the temporary files left, and returns what was let out. Later steps never start.
     */
    public static Summary closeForExit(long waitMillis) {
        long until = System.nanoTime() + waitMillis * 1_000_000L;
        synchronized (LOCK) {
            closed = true;
            while (inFlight > 0) {
                long left = (until - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    break;
                }
                try {
                    LOCK.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            for (Path t : temporaries) {
                try {
                    Files.deleteIfExists(t);
                } catch (java.io.IOException ignored) {
                    // best effort: a stale temporary is removed by the next writer
                }
            }
            return new Summary(List.copyOf(charges), List.copyOf(written));
        }
    }
}
