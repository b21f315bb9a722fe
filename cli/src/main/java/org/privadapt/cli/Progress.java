package org.privadapt.cli;

import java.io.PrintStream;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on standard error for long jobs, shown only to a person at a terminal (or when
 * {@code PRIVADAPT_PROGRESS=1}), never in {@code --json} mode, so scripts and logs get clean output.
 */
public final class Progress implements AutoCloseable {
    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    public static Progress start(String task, long total, boolean enabled) {
        boolean show = enabled && (System.console() != null || "1".equals(System.getenv("PRIVADAPT_PROGRESS")));
        if (!show) {
            return new Progress(null);
        }
        ProgressBar b = new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(
                        new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true)))
                .setUpdateIntervalMillis(250).build();
        return new Progress(b);
    }

    public void step() {
        if (bar != null) {
            bar.step();
        }
    }

    public void message(String extra) {
        if (bar != null) {
            bar.setExtraMessage(extra);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
