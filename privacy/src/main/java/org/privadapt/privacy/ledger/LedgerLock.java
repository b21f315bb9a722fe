package org.privadapt.privacy.ledger;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The exclusive lock on one ledger: a JVM-wide lock per ledger path plus an OS lock on {@code FILE.lock} (the ledger
 * itself is replaced by atomic renames, so it cannot carry the lock).
 *
 * <p>A lock file is never removed once created: removing a file that another process may have opened and be waiting
 * to lock would let that process lock the removed file while a third locks a new one at the same path, and both would
 * write the ledger. (Checking after locking that the path still names the locked file would need to open the path
 * again, and closing that second descriptor drops the process's POSIX lock.) So the commit does every check that can
 * refuse a run before it takes a lock ({@link LedgerCommit}); only an I/O fault after the lock of a new ledger was
 * taken leaves its empty lock file behind.
 */
final class LedgerLock implements AutoCloseable {
    private static final Map<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    private final ReentrantLock jvm;
    private FileChannel channel;
    private FileLock lock;

    private LedgerLock(ReentrantLock jvm) {
        this.jvm = jvm;
    }

    static Path lockFileOf(Path ledger) {
        return ledger.resolveSibling(ledger.getFileName() + ".lock");
    }

    /**
     * Takes the ledger's lock, blocking while another thread or process holds it; creates the ledger's directory if
     * needed.
     *
     * @throws IOException if the lock file cannot be created or locked
     */
    static LedgerLock acquire(Path ledger) throws IOException {
        ReentrantLock jvm = JVM_LOCKS.computeIfAbsent(ledger, p -> new ReentrantLock());
        jvm.lock();
        LedgerLock l = new LedgerLock(jvm);
        try {
            Files.createDirectories(ledger.getParent());
            l.channel = FileChannel.open(lockFileOf(ledger), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            l.lock = l.channel.lock();
            return l;
        } catch (IOException | RuntimeException e) {
            l.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            if (lock != null) {
                lock.release();
            }
        } catch (IOException ignored) {
            // closing the channel releases it too
        } finally {
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException ignored) {
                // nothing was written through it
            }
            lock = null;
            channel = null;
            if (jvm.isHeldByCurrentThread()) {
                jvm.unlock();
            }
        }
    }
}
