package org.privadapt.cli;

import java.util.concurrent.atomic.AtomicBoolean;
import org.privadapt.privacy.RunJournal;

/**
 * Ctrl-C (INT) and TERM stop a command at once and say what it let out (issue 46): the journal of the run is closed
 * (a ledger write or an output rename in flight finishes, none starts after), its temporary files are removed, one
 * line says what was spent and which outputs were written, and the process halts with 130 (INT) or 143 (TERM). A
 * signal before the charge therefore spends nothing and writes nothing.
 *
 * <p>The JVM must not have inherited the signal as ignored (a shell starting it in the background without job
 * control does that): the launcher resets it ({@code privadapt}).
 */
final class Interrupts {
    /** How long a stop waits for a ledger write or a set of output renames in flight. */
    static final long WAIT_MILLIS = 1500;
    private static final AtomicBoolean STOPPING = new AtomicBoolean();

    private Interrupts() {
    }

    /** Installs the handlers for the {@code privadapt} process (not for tests that call {@link Main#execute}). */
    static void install() {
        handle("INT", 130);
        handle("TERM", 143);
    }

    /**
     * {@code sun.misc.Signal.handle(new Signal(name), handler)} (module jdk.unsupported, present in every JDK since 9),
     * called reflectively so that the build has no compile-time reference to an internal API.
     */
    private static void handle(String name, int code) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            Object handler = java.lang.reflect.Proxy.newProxyInstance(Interrupts.class.getClassLoader(),
                    new Class<?>[] {handlerType}, (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "handle" -> stop(name, code);
                            case "hashCode" -> {
                                return System.identityHashCode(proxy);
                            }
                            case "equals" -> {
                                return proxy == args[0];
                            }
                            case "toString" -> {
                                return "privadapt " + name + " handler";
                            }
                            default -> { }
                        }
                        return null;
                    });
            signal.getMethod("handle", signal, handlerType).invoke(null, signal.getConstructor(String.class).newInstance(name), handler);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the signal is not available here (or is reserved by the VM's options): the JVM's default stands
        }
    }

    private static void stop(String name, int code) {
        if (!STOPPING.compareAndSet(false, true)) {
            return; // the launcher passes the terminal's signal on as well: one stop is enough
        }
        RunJournal.Summary s = RunJournal.closeForExit(WAIT_MILLIS);
        System.out.flush();
        System.err.println("privadapt: interrupted (" + name + "); " + s.describe());
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }
}
