package org.privadapt.data.text;

/** Where a long encoding shows its progress (the CLI's progress bar); {@link #NONE} shows nothing. */
@FunctionalInterface
public interface EncodingProgress {
    EncodingProgress NONE = (task, total) -> new Display() {
        @Override
        public void done(int k) {
        }

        @Override
        public void close() {
        }
    };

    /** Starts showing {@code task} over {@code total} texts. */
    Display start(String task, int total);

    /** One encoding's display. */
    interface Display extends AutoCloseable {
        /** {@code k} texts are encoded so far. */
        void done(int k);

        @Override
        void close();
    }
}
