package org.privadapt.cli;

import java.io.PrintStream;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on standard error for long jobs, shown when standard error is a terminal, so that
 * {@code privadapt ... | tee log} still shows it, and never in {@code --json} mode.
 *
 * <p>Java cannot ask whether standard error alone is a terminal ({@code System.console()} needs standard input and
 * output to be one too), so the launcher tells it: {@code ./privadapt} passes {@code -Dprivadapt.stderrTty=true}
 * when {@code [ -t 2 ]}. Without the launcher {@code System.console()} decides. {@code PRIVADAPT_PROGRESS=1} (or
 * {@code always}) forces the bar on, {@code PRIVADAPT_PROGRESS=0} (or {@code never}) off.
 */
public final class Progress implements AutoCloseable {
    private final ProgressBar bar;
    private final String linesTask;
    private final long total;
    private long done;
    private String extra = "";

    private Progress(ProgressBar bar) {
        this(bar, null, 0);
    }

    private Progress(ProgressBar bar, String linesTask, long total) {
        this.bar = bar;
        this.linesTask = linesTask;
        this.total = total;
    }

    /**
     * As {@link #start}, and where the bar is not shown because standard error is not a terminal (a log, a CI job),
     * one plain line per step instead ("privadapt: TASK 3/8 done (MESSAGE)"): for the long benchmarks (linalg,
     * sinkhorn) that otherwise print nothing for many minutes. Nothing in {@code --json} mode ({@code enabled} false).
     */
    public static Progress startWithLines(String task, long total, boolean enabled) {
        Progress p = start(task, total, enabled);
        if (p.bar != null || !enabled) {
            return p;
        }
        return new Progress(null, task, total);
    }

    public static Progress start(String task, long total, boolean enabled) {
        boolean show = enabled && wanted(System.getenv("PRIVADAPT_PROGRESS"), System.getProperty("privadapt.stderrTty"),
                System.console() != null);
        if (!show) {
            return new Progress(null);
        }
        ProgressBar b = new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(
                        new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true)))
                .setUpdateIntervalMillis(250).build();
        return new Progress(b);
    }

    /** The decision, from the environment variable, the launcher's property and whether there is a console. */
    static boolean wanted(String env, String stderrTty, boolean console) {
        if (env != null) {
            String e = env.trim().toLowerCase(java.util.Locale.ROOT);
            if (e.equals("1") || e.equals("always") || e.equals("true")) {
                return true;
            }
            if (e.equals("0") || e.equals("never") || e.equals("false")) {
                return false;
            }
        }
        if (stderrTty != null) {
            return Boolean.parseBoolean(stderrTty);
        }
        return console;
    }

    public void step() {
        if (bar != null) {
            bar.step();
        }
        if (linesTask != null) {
            done++;
            System.err.println("privadapt: " + linesTask + " " + done + "/" + total + " done" + (extra.isEmpty() ? "" : " (" + extra + ")"));
            System.err.flush();
        }
    }

    /** Sets the bar to {@code k} steps done (for work that reports its count, as an encoding does). */
    public void stepTo(long k) {
        if (bar != null) {
            bar.stepTo(k);
        }
    }

    public void message(String extra) {
        if (bar != null) {
            bar.setExtraMessage(extra);
        }
        this.extra = extra == null ? "" : extra;
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
